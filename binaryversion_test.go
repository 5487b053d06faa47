package vigil

import "testing"

// TestBinaryVersion: the version of a binary document (status 2xx, its
// content type, an error saying why and its size) is Binary and not
// Failed, and its size reads back; a failed fetch, whatever its status,
// is Failed, and a version with a body neither.
func TestBinaryVersion(t *testing.T) {
	digest := "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	pdf := BinaryVersionError("binary content: application/pdf is not a text document", 12345, digest)
	if want := "binary content: application/pdf is not a text document (12345 bytes, " + digest + ")"; pdf != want {
		t.Errorf("BinaryVersionError = %q, want %q", pdf, want)
	}
	for _, tc := range []struct {
		name           string
		v              Version
		binary, failed bool
		size           int64
		file           string
		digest         string
	}{
		{"PDF", Version{Status: 200, ContentType: "application/pdf", Error: pdf}, true, false, 12345, "application/pdf, 12345 bytes", digest},
		{"binary body served as HTML", Version{Status: 203, ContentType: "text/html", Error: BinaryVersionError("binary content: text/html is not a text document", 7, digest)}, true, false, 7, "text/html, 7 bytes", digest},
		{"binary without its size", Version{Status: 200, ContentType: "image/png", Error: "binary content: image/png is not a text document"}, true, false, 0, "image/png", ""},
		{"not found", Version{Status: 404, Error: "fetch http://a.example/: HTTP error status 404"}, false, true, 0, "", ""},
		{"not found, typed", Version{Status: 404, ContentType: "application/pdf", Error: "fetch http://a.example/: HTTP error status 404"}, false, true, 0, "", ""},
		{"200 too large", Version{Status: 200, Error: "body too large: more than 10 bytes (3 bytes, x)"}, false, true, 0, "", ""},
		{"no answer", Version{Error: "fetch http://a.example/: no such host"}, false, true, 0, "", ""},
		{"page", Version{Status: 200, ContentType: "text/html", Size: 10}, false, false, 0, "", ""},
	} {
		size, ok := tc.v.BinarySize()
		if tc.v.Binary() != tc.binary || tc.v.Failed() != tc.failed || size != tc.size || ok != (tc.size > 0) || tc.v.BinaryFile() != tc.file {
			t.Errorf("%s: Binary %v, Failed %v, BinarySize %d %v, BinaryFile %q; want %v, %v, %d, %q",
				tc.name, tc.v.Binary(), tc.v.Failed(), size, ok, tc.v.BinaryFile(), tc.binary, tc.failed, tc.size, tc.file)
		}
		if got := tc.v.BinaryDigest(); got != tc.digest {
			t.Errorf("%s: BinaryDigest %q, want %q", tc.name, got, tc.digest)
		}
	}
}
