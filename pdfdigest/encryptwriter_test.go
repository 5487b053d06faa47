package pdfdigest

import (
	"bytes"
	"crypto/md5"
	"fmt"
)

// rc4Run is a file encrypted by the standard security handler, V 4 and
// R 4, its strings and streams by a crypt filter /StdCF of method /V2
// (RC4), with an empty user password: the /Encrypt dictionary's entries
// other than the keys' (Length, in it and in the crypt filter, as given),
// the key's length, and what one run of its generator writes.
type rc4Run struct {
	// KeyBytes is the file key's length, 5 to 16 bytes.
	KeyBytes int
	// Length and CFLength are the /Encrypt dictionary's and the crypt
	// filter's entries of the key's length, as "/Length 16", or "".
	Length, CFLength string
	// ID is the file's /ID, from which the key is drawn.
	ID string
	// EncryptGen and EncryptRef are the /Encrypt dictionary's
	// generation (object 5) and the trailer's reference to it, "5 0 R"
	// if "".
	EncryptGen int
	EncryptRef string
	// Title, Created and Text are the Info dictionary's title and date
	// and the page's content.
	Title, Created, Text string
}

// writeRC4PDF returns the file r describes, as a writer encrypts it
// (ISO 32000-1 §7.6.3.3, Algorithms 2 and 5, and Algorithm 1 for each
// string and stream).
func writeRC4PDF(r rc4Run) []byte {
	id := []byte(r.ID)
	o := bytes.Repeat([]byte{0x5a}, 32) // an owner password's: any 32 bytes
	p := -4
	key := fileKey(o, uint32(p), id, 4, r.KeyBytes, true)
	// Algorithm 5: the padding and the /ID through MD5, RC4 of the key
	// and of the key xor 1 to 19, then 16 bytes of any.
	h := md5.New()
	h.Write(padding)
	h.Write(id)
	u := h.Sum(nil)
	k := make([]byte, len(key))
	for i := range 20 {
		for j := range key {
			k[j] = key[j] ^ byte(i)
		}
		rc4Crypt(k, u, u)
	}
	u = append(u, bytes.Repeat([]byte{0}, 16)...)
	c := &decrypter{key: key}
	enc := func(num int, s string) string {
		out := make([]byte, len(s))
		rc4Crypt(c.objectKey(num, 0, false), out, []byte(s))
		return fmt.Sprintf("<%x>", out)
	}
	content := "BT /F1 12 Tf 20 100 Td (" + r.Text + ") Tj ET"
	var b bytes.Buffer
	b.WriteString("%PDF-1.6\n")
	fmt.Fprintf(&b, "1 0 obj\n<< /Type /Catalog /Pages 4 0 R >>\nendobj\n")
	fmt.Fprintf(&b, "2 0 obj\n<< /Title %s /CreationDate %s >>\nendobj\n", enc(2, r.Title), enc(2, r.Created))
	stream := make([]byte, len(content))
	rc4Crypt(c.objectKey(3, 0, false), stream, []byte(content))
	fmt.Fprintf(&b, "3 0 obj\n<< /Length %d >>\nstream\n%s\nendstream\nendobj\n", len(stream), stream)
	fmt.Fprintf(&b, "5 %d obj\n<< /Filter /Standard /V 4 /R 4 %s /CF << /StdCF << /CFM /V2 /AuthEvent /DocOpen %s >> >> /StmF /StdCF /StrF /StdCF /O <%x> /U <%x> /P %d >>\nendobj\n",
		r.EncryptGen, r.Length, r.CFLength, o, u, p)
	ref := r.EncryptRef
	if ref == "" {
		ref = "5 0 R"
	}
	fmt.Fprintf(&b, "trailer\n<< /Root 1 0 R /Info 2 0 R /Encrypt %s /ID [<%x> <%x>] >>\n%%%%EOF\n", ref, id, id)
	return b.Bytes()
}
