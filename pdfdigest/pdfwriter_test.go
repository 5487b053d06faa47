package pdfdigest

import (
	"bytes"
	"fmt"
	"strings"
)

// pdfRun is what one run of a PDF generator writes: what it changes at
// every run (dates, the file's ID, its XMP packet's dates and ids) and the
// document itself (its page's text, its title).
type pdfRun struct {
	Created, Modified string // the Info dictionary's dates
	ID                string // the trailer's /ID, hex
	XMPDate           string
	// FontTag is the tag of the font's subset (ABCDEF in
	// /ABCDEF+Helvetica), which some generators (iText, OpenPDF, and so
	// JasperReports) draw at random at every run.
	FontTag     string
	Text, Title string
	// Font is the font's name, Helvetica if empty; Note is the text of
	// the page's annotation, whose /M is the run's Modified date.
	Font, Note string
	// ObjectStreams puts the Info dictionary (and the other objects that are no
	// streams) in a FlateDecode object stream, and the cross-reference
	// table in a cross-reference stream (PDF 1.5), as most generators do.
	ObjectStreams bool
	// Linearized writes a linearization dictionary first, whose values
	// are offsets and the file's length.
	Linearized bool
	// Filter, when set, is the name of a testFilters encoding of the
	// object stream (with ObjectStreams) and of the metadata stream,
	// which are otherwise FlateDecode and uncompressed.
	Filter string
}

// firstPDFRun and secondPDFRun are two runs of a generator on the same
// document: their dates differ in length (a time zone), so every offset
// after them moves, and so do their /ID and XMP packet.
func firstPDFRun() pdfRun {
	return pdfRun{Created: "D:20240101120000Z", Modified: "D:20240101120000Z", ID: "0123456789abcdef0123456789abcdef",
		XMPDate: "2024-01-01T12:00:00Z", FontTag: "KQWHAB", Text: "Hello, world", Title: "Report", Note: "Checked"}
}

// secondPDFRun: see firstPDFRun.
func secondPDFRun() pdfRun {
	return pdfRun{Created: "D:20251130093015+01'00'", Modified: "D:20251130093016+01'00'", ID: "fedcba9876543210fedcba9876543210",
		XMPDate: "2025-11-30T09:30:15.250+01:00", FontTag: "ZRTEXN", Text: "Hello, world", Title: "Report", Note: "Checked"}
}

// writePDF returns the PDF the run r writes: a valid file, its offsets
// and lengths right, as a generator writes it.
func writePDF(r pdfRun) []byte {
	content := fmt.Sprintf("BT /F1 12 Tf 20 100 Td (%s) Tj ET", r.Text)
	xmp := fmt.Sprintf(`<?xpacket begin="%s" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:xmpMM="http://ns.adobe.com/xap/1.0/mm/">
<xmp:CreateDate>%s</xmp:CreateDate><xmpMM:DocumentID>uuid:%s</xmpMM:DocumentID>
</rdf:Description></rdf:RDF></x:xmpmeta>
<?xpacket end="w"?>`, "\ufeff", r.XMPDate, r.ID)
	font := r.Font
	if font == "" {
		font = "Helvetica"
	}
	// Objects 1 to 7; 4 (the page's content) and 5 (XMP) are streams.
	plain := map[int]string{
		1: "<< /Type /Catalog /Pages 2 0 R /Metadata 5 0 R >>",
		2: "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		3: "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R /Resources << /Font << /F1 7 0 R >> >> " +
			fmt.Sprintf("/Annots [<< /Type /Annot /Subtype /Text /Rect [10 10 30 30] /Contents (%s) /M (%s) >>] >>", r.Note, r.Modified),
		6: fmt.Sprintf("<< /Title (%s) /Producer (pdfdigest_test) /CreationDate (%s) /ModDate (%s) >>", r.Title, r.Created, r.Modified),
		7: fmt.Sprintf("<< /Type /Font /Subtype /Type1 /BaseFont /%s+%s >>", r.FontTag, font),
	}
	var b bytes.Buffer
	offsets := map[int]int{}
	b.WriteString("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
	if r.Linearized {
		// Its values are placeholders of the right kind: offsets and
		// the length change with the dates.
		offsets[9] = b.Len()
		fmt.Fprintf(&b, "9 0 obj\n<< /Linearized 1 /L %d /H [%d 120] /O 3 /E %d /N 1 /T %d >>\nendobj\n", 1000+len(r.Created), 500+len(r.Modified), 700+len(r.Created), 900+len(r.Modified))
	}
	stream := func(n int, dict, data string) {
		offsets[n] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n<< %s /Length %d >>\nstream\n%s\nendstream\nendobj\n", n, dict, len(data), data)
	}
	stream(4, "", content)
	if r.Filter != "" {
		dict, data := encodeStream(r.Filter, []byte(xmp))
		stream(5, "/Type /Metadata /Subtype /XML "+dict, string(data))
	} else {
		stream(5, "/Type /Metadata /Subtype /XML", xmp)
	}
	if !r.ObjectStreams {
		for _, n := range []int{1, 2, 3, 6, 7} {
			offsets[n] = b.Len()
			fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", n, plain[n])
		}
		xref := b.Len()
		fmt.Fprintf(&b, "xref\n0 8\n0000000000 65535 f \n")
		for n := 1; n <= 7; n++ {
			fmt.Fprintf(&b, "%010d 00000 n \n", offsets[n])
		}
		fmt.Fprintf(&b, "trailer\n<< /Size 8 /Root 1 0 R /Info 6 0 R /ID [<%s> <%s>] >>\nstartxref\n%d\n%%%%EOF\n", r.ID, r.ID, xref)
		return b.Bytes()
	}
	// The object stream (8): a header of object numbers and offsets,
	// then the objects.
	var header, body strings.Builder
	for _, n := range []int{1, 2, 3, 6, 7} {
		fmt.Fprintf(&header, "%d %d ", n, body.Len())
		body.WriteString(plain[n] + "\n")
	}
	filter := r.Filter
	if filter == "" {
		filter = "flate"
	}
	dict, z := encodeStream(filter, []byte(header.String()+body.String()))
	offsets[8] = b.Len()
	fmt.Fprintf(&b, "8 0 obj\n<< /Type /ObjStm /N 5 /First %d %s /Length %d >>\nstream\n", header.Len(), dict, len(z))
	b.Write(z)
	b.WriteString("\nendstream\nendobj\n")
	// The cross-reference stream (10): type, offset or object stream,
	// generation or index, in 1, 4 and 2 bytes.
	xref := b.Len()
	var entries []byte
	entry := func(kind byte, field2 int, field3 int) {
		entries = append(entries, kind, byte(field2>>24), byte(field2>>16), byte(field2>>8), byte(field2), byte(field3>>8), byte(field3))
	}
	entry(0, 0, 65535)
	inStream := map[int]int{1: 0, 2: 1, 3: 2, 6: 3, 7: 4}
	for n := 1; n <= 10; n++ {
		switch i, ok := inStream[n]; {
		case ok:
			entry(2, 8, i)
		case n == 10:
			entry(1, xref, 0)
		case n == 9 && !r.Linearized:
			entry(0, 0, 0) // free: no linearization dictionary
		default:
			entry(1, offsets[n], 0)
		}
	}
	fmt.Fprintf(&b, "10 0 obj\n<< /Type /XRef /Size 11 /W [1 4 2] /Root 1 0 R /Info 6 0 R /ID [<%s> <%s>] /Length %d >>\nstream\n", r.ID, r.ID, len(entries))
	b.Write(entries)
	fmt.Fprintf(&b, "\nendstream\nendobj\nstartxref\n%d\n%%%%EOF\n", xref)
	return b.Bytes()
}
