package crawl

import (
	"bytes"
	"encoding/hex"
	"fmt"

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
	if mediaType != "application/pdf" && !bytes.HasPrefix(body, []byte("%PDF-")) {
		return hashBody(body), nil
	}
	sum, err := pdfdigest.Sum(body, nil)
	if err != nil {
		return hashBody(body), fmt.Errorf("hashed as bytes: %w", err)
	}
	return "sha256:" + hex.EncodeToString(sum[:]), nil
}
