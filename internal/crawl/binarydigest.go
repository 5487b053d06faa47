package crawl

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/imagedigest"
	"github.com/vigil-web/vigil/pdfdigest"
)

// The digests of a binary leaf's body say how they were taken, so that
// two crawls compare a leaf only where they took its digest alike
// (Snapshot.TableAgainst): a Vigil that leaves out more of a PDF or an
// image than the one before it does not report every such file changed
// once after the upgrade. The hash of the bytes is "sha256:" (a text
// page's Hash too); pdfDigest and imageDigest prefix it with the kind and
// the revision of what they leave out, a revision that is to grow
// whenever a file hashed before could hash otherwise.
const (
	// bytesDigest is the prefix of the hash of the bytes (hashBody).
	bytesDigest = "sha256:"
	// pdfDigest is the prefix of a PDF's hash by pdfdigest: its first
	// revision, which left out dates, /ID, XMP and subset tags, wrote
	// "sha256:"; the second decodes predicted, LZW and ASCII streams and
	// decrypts a file that opens without a password; the third hashes
	// a reference as its three tokens, whatever the white space and
	// comments between them ("1  0\nR" as "1 0 R"), and decrypts a file
	// whose RC4 key's length its crypt filter alone gives, but not one of
	// AES-256 (revision 6) whose /Perms does not check.
	pdfDigest = "pdf3-sha256:"
	// imageDigest is the prefix of an image's hash by imagedigest.
	imageDigest = "image1-sha256:"
)

// digestKind returns the prefix of hash that says how it was taken:
// "sha256:", pdfDigest or imageDigest.
func digestKind(hash string) string {
	return hash[:strings.IndexByte(hash, ':')+1]
}

// digestsComparable reports whether the hashes of p and q, one binary
// leaf hashed at two crawls, tell whether it changed though they may be of
// different kinds (digestKind): of the same kind they do; of different
// kinds, where one is of the bytes because the digest of this Vigil did
// not read the document (its DigestNote, hashedAsBytes, says why: a PDF
// that no longer parses or needs a password now, an image cut short) or
// where the two are of documents of different media types (a PDF
// replaced by a ZIP at its URL), the document changed, not the Vigil
// that hashed it; but only against a digest of this Vigil's kinds: one of
// a revision before (pdf2-sha256:) may have read what this Vigil no
// longer does (a /Perms it checks now). Otherwise the difference may be
// an upgrade's (a Vigil before this one hashed a PDF as "sha256:"), and
// the hashes cannot tell. (A note does not say which Vigil wrote it: a
// PDF an older Vigil hashed as bytes with a note, and this one digests
// (an RC4 file whose key length only its crypt filter gives), is taken
// as changed, once.)
func digestsComparable(p, q *Page) bool {
	kp, kq := digestKind(p.Hash), digestKind(q.Hash)
	switch {
	case kp == kq:
		return true
	case kp == bytesDigest && strings.HasPrefix(p.DigestNote, hashedAsBytes) && currentDigest(kq),
		kq == bytesDigest && strings.HasPrefix(q.DigestNote, hashedAsBytes) && currentDigest(kp):
		return true
	}
	return vigil.MediaType(p.ContentType) != vigil.MediaType(q.ContentType)
}

// currentDigest reports whether kind is that of a digest this Vigil
// takes (pdfDigest, imageDigest).
func currentDigest(kind string) bool { return kind == pdfDigest || kind == imageDigest }

// hashedAsBytes begins the DigestNote of a PDF or an image hashed as its
// bytes, in whole, because its digest did not read it.
const hashedAsBytes = "hashed as bytes: "

// maxDigestNoteItems bounds the streams a DigestNote names; it counts
// the others.
const maxDigestNoteItems = 3

// BinaryDigest returns the Hash of a binary document's body (a page the
// fetcher does not return as text: vigil.FetchRequest.DigestBinary), the
// digest by which a crawl versions a site's binary leaves and a page
// sentinel tells that the file it watches changed, and
// why it may change at every crawl though the document does not
// (Page.DigestNote). Of a PDF, by its media type or its %PDF- magic, the
// hash is its hash without what a generator changes at every run
// (pdfdigest.Sum), so that a PDF generated per request is not a change at
// every crawl; of another document, or a PDF that pdfdigest does not read
// (a *pdfdigest.SyntaxError, a *pdfdigest.EncryptedError: it opens with a
// password only), the hash of its bytes, the latter with the reason:
// never an error that loses the page, but each run a change. A PDF read
// with streams left as their bytes (pdfdigest.Result.Undecoded: a filter
// it does not decode) has their reasons, the first few.
func BinaryDigest(mediaType string, body []byte) (digest, note string) {
	// A PNG, JPEG, GIF or WebP image is digested without its metadata
	// (digestImage), the rest as below.
	if digest, ok, err := digestImage(mediaType, body); ok {
		if err != nil {
			return digest, err.Error()
		}
		return digest, ""
	}
	if mediaType != "application/pdf" && !bytes.HasPrefix(body, []byte("%PDF-")) {
		return hashBody(body), ""
	}
	res, err := pdfdigest.SumResult(body, nil)
	if err != nil {
		return hashBody(body), hashedAsBytes + err.Error()
	}
	digest = pdfDigest + hex.EncodeToString(res.Sum[:])
	if len(res.Undecoded) == 0 {
		return digest, ""
	}
	items := res.Undecoded[:min(len(res.Undecoded), maxDigestNoteItems)]
	note = "hashed in part as bytes: " + strings.Join(items, "; ")
	if more := len(res.Undecoded) - len(items) + res.UndecodedMore; more > 0 {
		note += fmt.Sprintf("; and %d more", more)
	}
	return digest, note
}

// imageMediaTypes are the media types of the images imagedigest reads.
var imageMediaTypes = map[string]bool{
	"image/png": true, "image/apng": true, "image/jpeg": true, "image/gif": true, "image/webp": true,
}

// digestImage returns the Hash of an image's body, and true, if it is a
// PNG, JPEG, GIF or WebP image by its media type or its magic (but a
// body of PDF magic, which BinaryDigest reads as a PDF): its hash
// without its metadata, what a generator changes at every run and no
// viewer shows (imagedigest.Sum), so that a chart or badge drawn per
// request is not a change at every crawl; of one that does not parse,
// the hash of its bytes, with the reason (a *imagedigest.FormatError).
func digestImage(mediaType string, body []byte) (string, bool, error) {
	if imagedigest.Format(body) == "" && (!imageMediaTypes[mediaType] || bytes.HasPrefix(body, []byte("%PDF-"))) {
		return "", false, nil
	}
	sum, err := imagedigest.Sum(body)
	if err != nil {
		return hashBody(body), true, fmt.Errorf("%s%w", hashedAsBytes, err)
	}
	return imageDigest + hex.EncodeToString(sum[:]), true, nil
}
