package vigil

import (
	"fmt"
	"strconv"
	"strings"
)

// A page that answers a binary document (a PDF, an image, a body of a
// type that is not text, or one that is not text whatever its type
// says) is stored as a version that has no body: the fetcher does not
// keep it. The version keeps the answer's status (2xx) and its
// ContentType, and as its Error why the document is not read with its
// size and digest (BinaryVersionError), so that another document is
// another version. Such a version is a good fetch, no failure (Failed):
// the API names no lastFetchError for it, the monitor starts no run of
// failures; but it has no body to read or compare either.

// BinaryVersionError returns the Error of the version of a binary
// document: why, the fetch's error ("binary content: application/pdf is
// not a text document"), then the document's size in bytes and its
// digest: "... (12345 bytes, sha256:...)". Version.BinarySize reads the
// size back.
func BinaryVersionError(why string, size int64, digest string) string {
	return fmt.Sprintf("%s (%d bytes, %s)", why, size, digest)
}

// Binary reports whether v is the version of a binary document: an
// answer 2xx whose body was not kept, with its content type and an
// Error that says why (BinaryVersionError). A failed fetch is stored
// with no content type: one that came with a status 2xx (a body over the
// size cap, a charset not supported) is stored as an error alone.
func (v *Version) Binary() bool {
	return v.Error != "" && v.Status/100 == 2 && v.ContentType != ""
}

// Failed reports whether v is a failed fetch: one with an Error that is
// not a binary document's (Binary). It is the one rule by which the API,
// the dashboard, vigil sentinel list and the monitor tell a page that
// fails; a version that has no body (Error set) is a failure or a binary
// document.
func (v *Version) Failed() bool {
	return v.Error != "" && !v.Binary()
}

// BinarySize returns the size in bytes of the binary document v is the
// version of, as its Error says it (BinaryVersionError), and true; 0 and
// false if v is no binary document's version or its Error does not say
// the size.
func (v *Version) BinarySize() (int64, bool) {
	size, _, ok := v.binaryNote()
	return size, ok
}

// BinaryDigest returns the digest of the binary document v is the
// version of, as its Error says it (BinaryVersionError):
// "sha256:...", or "" if v is no binary document's version or its Error
// does not say it.
func (v *Version) BinaryDigest() string {
	_, digest, _ := v.binaryNote()
	return digest
}

// binaryNote reads the size and digest that end the Error of a binary
// document's version, "... (12345 bytes, sha256:...)"; ok is false if v
// is no binary document's version or its Error does not end so.
func (v *Version) binaryNote() (size int64, digest string, ok bool) {
	if !v.Binary() || !strings.HasSuffix(v.Error, ")") {
		return 0, "", false
	}
	open := strings.LastIndex(v.Error, " (")
	if open < 0 {
		return 0, "", false
	}
	sizeText, digest, ok := strings.Cut(v.Error[open+2:len(v.Error)-1], " bytes, ")
	if !ok {
		return 0, "", false
	}
	n, err := strconv.ParseInt(sizeText, 10, 64)
	if err != nil || n < 0 {
		return 0, "", false
	}
	return n, digest, true
}

// BinaryFile says what binary document v is the version of (Binary): its
// media type and size, "application/pdf, 12345 bytes", or its type
// alone if its Error does not say its size; "" for any other version.
func (v *Version) BinaryFile() string {
	if !v.Binary() {
		return ""
	}
	if size, ok := v.BinarySize(); ok {
		return fmt.Sprintf("%s, %d bytes", v.ContentType, size)
	}
	return v.ContentType
}
