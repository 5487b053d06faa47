package crawl_test

import (
	"bytes"
	"testing"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/crawl"
)

// FuzzDecode: Decode never panics; what it accepts is valid, and encodes
// to a snapshot it accepts again and encodes the same way. Its seed
// corpus is testdata/fuzz/FuzzDecode (the example and snapshots that
// break each rule), run by every go test.
func FuzzDecode(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := crawl.Decode(bytes.NewReader(data), 1<<20)
		if err != nil {
			if vigil.ErrorCode(err) != vigil.EINVALID {
				t.Fatalf("error without EINVALID: %v", err)
			}
			return
		}
		if err := s.Validate(); err != nil {
			t.Fatalf("decoded, then invalid: %v", err)
		}
		var b1 bytes.Buffer
		if err := s.Encode(&b1); err != nil {
			t.Fatal(err)
		}
		s2, err := crawl.Decode(bytes.NewReader(b1.Bytes()), 0)
		if err != nil {
			t.Fatalf("encoded, then refused: %v\n%s", err, b1.Bytes())
		}
		var b2 bytes.Buffer
		if err := s2.Encode(&b2); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(b1.Bytes(), b2.Bytes()) {
			t.Fatalf("encodes differently the second time:\n%s\n%s", b1.Bytes(), b2.Bytes())
		}
	})
}
