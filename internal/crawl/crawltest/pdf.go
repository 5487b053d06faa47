package crawltest

import (
	"bytes"
	"fmt"
)

// PDFRun is what one run of a PDF generator writes: what it changes at
// every run (dates, the file's ID, its XMP packet's dates and ids) and the
// document itself (its page's text, its title). The variety of layouts a
// generator writes (object streams, linearization) is pdfdigest's to
// test; the crawl's and its commands' tests need a PDF generated twice.
type PDFRun struct {
	Created, Modified string // the Info dictionary's dates
	ID                string // the trailer's /ID, hex
	XMPDate           string
	Text, Title       string
}

// FirstPDFRun and SecondPDFRun are two runs of a generator on the same
// document: their dates differ in length (a time zone), so every offset
// after them moves, and so do their /ID and XMP packet.
func FirstPDFRun() PDFRun {
	return PDFRun{Created: "D:20240101120000Z", Modified: "D:20240101120000Z", ID: "0123456789abcdef0123456789abcdef",
		XMPDate: "2024-01-01T12:00:00Z", Text: "Hello, world", Title: "Report"}
}

// SecondPDFRun: see FirstPDFRun.
func SecondPDFRun() PDFRun {
	return PDFRun{Created: "D:20251130093015+01'00'", Modified: "D:20251130093016+01'00'", ID: "fedcba9876543210fedcba9876543210",
		XMPDate: "2025-11-30T09:30:15.250+01:00", Text: "Hello, world", Title: "Report"}
}

// PDF returns the PDF the run r writes: a valid file of one page, its
// objects in a cross-reference table, its offsets and lengths right, as
// a generator writes it.
func PDF(r PDFRun) []byte {
	content := fmt.Sprintf("BT /F1 12 Tf 20 100 Td (%s) Tj ET", r.Text)
	xmp := fmt.Sprintf(`<?xpacket begin="%s" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:xmpMM="http://ns.adobe.com/xap/1.0/mm/">
<xmp:CreateDate>%s</xmp:CreateDate><xmpMM:DocumentID>uuid:%s</xmpMM:DocumentID>
</rdf:Description></rdf:RDF></x:xmpmeta>
<?xpacket end="w"?>`, "\ufeff", r.XMPDate, r.ID)
	objects := []string{
		1: "<< /Type /Catalog /Pages 2 0 R /Metadata 5 0 R >>",
		2: "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		3: "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R /Resources << /Font << /F1 7 0 R >> >> >>",
		4: fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(content), content),
		5: fmt.Sprintf("<< /Type /Metadata /Subtype /XML /Length %d >>\nstream\n%s\nendstream", len(xmp), xmp),
		6: fmt.Sprintf("<< /Title (%s) /Producer (crawltest) /CreationDate (%s) /ModDate (%s) >>", r.Title, r.Created, r.Modified),
		7: "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
	}
	var b bytes.Buffer
	offsets := make([]int, len(objects))
	b.WriteString("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
	for n := 1; n < len(objects); n++ {
		offsets[n] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", n, objects[n])
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objects))
	for n := 1; n < len(objects); n++ {
		fmt.Fprintf(&b, "%010d 00000 n \n", offsets[n])
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R /Info 6 0 R /ID [<%s> <%s>] >>\nstartxref\n%d\n%%%%EOF\n", len(objects), r.ID, r.ID, xref)
	return b.Bytes()
}
