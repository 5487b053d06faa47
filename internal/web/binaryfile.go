package web

import "github.com/vigil-web/vigil"

// A page that answered a binary document (a PDF, an image) has a version
// that is no failure but has no body (vigil.Version.Binary): the
// dashboard shows it as the file it is, and a request for its body or a
// comparison with it is refused saying so.

// fileText says what binary document v is the version of
// (vigil.Version.Binary), as the dashboard shows it: its media type and
// size, "application/pdf, 12.1 KiB", or its type alone if its version
// does not say its size; "" for any other version.
func fileText(v *vigil.Version) string {
	if !v.Binary() {
		return ""
	}
	if size, ok := v.BinarySize(); ok {
		return v.ContentType + ", " + fmtBytes(size)
	}
	return v.ContentType
}

// noBody says what v, a version that has no body (its Error set), is,
// for a refusal to read or compare it: "a file Vigil does not read
// (application/pdf, 12345 bytes)" (vigil.Version.Binary), else "a failed
// fetch (why)".
func noBody(v *vigil.Version) string {
	if v.Binary() {
		return "a file Vigil does not read (" + v.BinaryFile() + ")"
	}
	return "a failed fetch (" + v.Error + ")"
}

// hasBody returns nil if v has a body, else an ENOTFOUND error saying
// what it is: a failed fetch, or a file whose body is not kept.
func hasBody(v *vigil.Version) error {
	switch {
	case v.Binary():
		return vigil.Errorf(vigil.ENOTFOUND, "version %d is a file Vigil does not read (%s): its body is not kept", v.ID, v.BinaryFile())
	case v.Error != "":
		return vigil.Errorf(vigil.ENOTFOUND, "version %d is a failed fetch: it has no body", v.ID)
	}
	return nil
}

// versionFile is the member file of a version in the API (versionBody):
// what binary document the version is of (vigil.Version.Binary), as its
// own members, so that a client tells it from a failed fetch, which has
// an error and no file.
type versionFile struct {
	// Type is the document's media type, the version's contentType.
	Type string `json:"type"`
	// Size is the document's length in bytes, decoded; absent if its
	// version does not say it (vigil.Version.BinarySize).
	Size *int64 `json:"size,omitempty"`
	// Digest identifies the document: its kind of hash, then the hash in
	// lower-case hex: "sha256:" of its bytes, "pdf3-sha256:" of a PDF
	// without what a generator changes at every run, "image1-sha256:" of
	// an image's pixels; another document is another digest. Absent if
	// its version does not say it (vigil.Version.BinaryDigest).
	Digest string `json:"digest,omitempty"`
}

// fileOf returns the file member of v in the API: nil for a version that
// is no binary document's.
func fileOf(v *vigil.Version) *versionFile {
	if !v.Binary() {
		return nil
	}
	f := &versionFile{Type: v.ContentType, Digest: v.BinaryDigest()}
	if size, ok := v.BinarySize(); ok {
		f.Size = &size
	}
	return f
}
