package warc

import (
	"bytes"
	"testing"
)

// TestJoinerKeepsOneCopy: the Joiner keeps a first segment's block once,
// in the block it joins, not a second time in the record it keeps for
// its header: its MaxBlock bounds what it holds, not half of it.
func TestJoinerKeepsOneCopy(t *testing.T) {
	rec := &Record{Version: "WARC/1.1", Header: Header{
		{Name: FieldType, Value: TypeResponse},
		{Name: FieldRecordID, Value: "<a>"},
		{Name: FieldSegmentNumber, Value: "1"},
	}, Block: bytes.Repeat([]byte("x"), 1000)}
	j := &Joiner{}
	if _, err := j.Add(rec, 1, "record 1"); err != nil {
		t.Fatal(err)
	}
	var held int
	for _, s := range j.open {
		held += len(s.origin.Block) + len(s.block)
	}
	if held != 1000 {
		t.Errorf("the Joiner holds %d bytes of blocks for a first segment of 1000", held)
	}
}
