package crawl

import (
	"bytes"
	"encoding/hex"
	"fmt"

	"github.com/vigil-web/vigil/imagedigest"
	"github.com/vigil-web/vigil/pdfdigest"
)

// digestBinary returns the Hash of a binary document's body (a page the
// fetcher does not return as text: vigil.FetchRequest.DigestBinary), as
// binaryDigest does. Why a PDF was hashed as its bytes is not kept:
// DigestBinary returns a digest alone, and a page's Note says why it was
// read as text, and is compared between crawls as such.
func digestBinary(mediaType string, body []byte) string {
	digest, _ := binaryDigest(mediaType, body) // its bytes' hash if not parsed
	return digest
}

// binaryDigest returns the Hash of a binary document's body: of a PDF, by
// its media type or its %PDF- magic, its hash without what a generator
// changes at every run (pdfdigest.Sum), so that a PDF generated per
// request is not a change at every crawl; of another document, or a PDF
// that does not parse, the hash of its bytes, the latter with the reason
// (a *pdfdigest.SyntaxError): never an error that loses the page, but
// each run a change.
func binaryDigest(mediaType string, body []byte) (string, error) {
	// A PNG, JPEG, GIF or WebP image is digested without its metadata
	// (imageDigest), the rest as below.
	if digest, ok, err := imageDigest(mediaType, body); ok {
		return digest, err
	}
	if mediaType != "application/pdf" && !bytes.HasPrefix(body, []byte("%PDF-")) {
		return hashBody(body), nil
	}
	sum, err := pdfdigest.Sum(body, nil)
	if err != nil {
		return hashBody(body), fmt.Errorf("hashed as bytes: %w", err)
	}
	return "sha256:" + hex.EncodeToString(sum[:]), nil
}

// imageMediaTypes are the media types of the images imagedigest reads.
var imageMediaTypes = map[string]bool{
	"image/png": true, "image/apng": true, "image/jpeg": true, "image/gif": true, "image/webp": true,
}

// imageDigest returns the Hash of an image's body, and true, if it is a
// PNG, JPEG, GIF or WebP image by its media type or its magic (but a
// body of PDF magic, which binaryDigest reads as a PDF): its hash
// without its metadata, what a generator changes at every run and no
// viewer shows (imagedigest.Sum), so that a chart or badge drawn per
// request is not a change at every crawl; of one that does not parse,
// the hash of its bytes, with the reason (a *imagedigest.FormatError).
func imageDigest(mediaType string, body []byte) (string, bool, error) {
	if imagedigest.Format(body) == "" && (!imageMediaTypes[mediaType] || bytes.HasPrefix(body, []byte("%PDF-"))) {
		return "", false, nil
	}
	sum, err := imagedigest.Sum(body)
	if err != nil {
		return hashBody(body), true, fmt.Errorf("hashed as bytes: %w", err)
	}
	return "sha256:" + hex.EncodeToString(sum[:]), true, nil
}
