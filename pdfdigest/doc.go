// Package pdfdigest hashes a PDF file without what its generator changes
// at every run.
//
// A PDF generated per request (an invoice, a report, a page printed to
// PDF) is written anew at every check: same pages, new dates. So that a
// monitor does not report it changed each time, Sum's hash leaves out:
//
//   - the values of /CreationDate and /ModDate, in any dictionary: the
//     Info dictionary's, and an embedded file's parameters; and of /M
//     where it is a date string, (D:...): an annotation's, a signature's;
//   - the tag of a font subset's name (ABCDEF in /ABCDEF+Helvetica),
//     which some generators draw at random;
//   - the trailer's /ID array, the file's identifier, new at every run
//     (and, in a cross-reference stream's dictionary, which stands for the
//     trailer, too);
//   - XMP metadata packets (<?xpacket begin ... <?xpacket end ...?>, and
//     <x:xmpmeta ... </x:xmpmeta> outside one) in any stream: they repeat
//     the dates and identifiers, and also the title, author and
//     keywords, which the Info dictionary holds too;
//   - what moves when those change length: the cross-reference table (its
//     offsets), the startxref value, the contents of cross-reference
//     streams (/Type /XRef), the offsets a trailer or a cross-reference
//     stream names (/Prev, /XRefStm) and the widths of the latter's fields
//     (/W), each stream's /Length (its bytes are hashed, and so their
//     length), an object stream's offsets (/First, and the offsets of its
//     header: the object numbers are kept), and a linearized file's
//     offsets and length (/L, /H, /E, /T) and its hint stream.
//
// Everything else is hashed: each object's number, every token of its
// value (white space and comments between tokens aside), each stream's
// bytes. A compressed object stream (/Type /ObjStm, /Filter /FlateDecode,
// where the Info dictionary sits in files of PDF 1.5 and later) and a
// compressed metadata stream are inflated, under Options.InflateCap bytes
// over the file, and their objects and packets read as the file's are;
// one that does not inflate, or past the cap, is hashed as its bytes.
//
// # How it reads a file
//
// It reads the file's syntax (ISO 32000-1 §7.2, §7.3: syntax.go), not its
// cross-reference table: it goes through the objects in the order they
// are written, so a file whose table is wrong, as many are, hashes as
// well as one whose table is right; and an incremental update's objects
// are hashed after the ones they replace. A file that does not parse
// this way (an unterminated string or dictionary, a stream without
// endstream, no %PDF- header, an object nested too deep or of too many
// values) is a *SyntaxError saying where and what was expected: the
// caller decides what to hash instead (Vigil's crawl hashes its bytes).
//
// # Limits
//
//   - An encrypted file (/Encrypt) parses, but its strings and streams are
//     hashed as read, encrypted under a key drawn from its /ID and, with
//     AES, vectors drawn at random, new at every run: each run a change.
//   - A PDF 2.0 file that keeps its title, author and keywords in XMP
//     alone: the packets are left out, so a new title there is no change.
//   - Only FlateDecode streams without /DecodeParms are inflated; an
//     object stream under another filter is hashed as its bytes, so the
//     dates in it are a change.
//   - Content streams are bytes: a generator that writes the same page
//     with other operators, or another compression level, makes a change.
//   - An object of more than 131 072 values is not read (each is held
//     until the object is written: some 20 MB of heap at most), nor one
//     nested more than 256 deep (ISO 32000-1 Annex C gives 28).
//
// # Why it is written by hand
//
// The standard library reads no PDF, a library such as this one imports
// no other module than golang.org/x/net and golang.org/x/text
// (CONTRIBUTING's layers), and of the PDF modules Vigil could take
// (pdfcpu, go-pdfium, fpdf, pdfsign) none hashes a PDF normalised:
// pdfcpu, which reads one, would be an adapter's dependency, its whole
// reader for what a scan of the syntax does.
//
// # Seed
//
// There is no seed paper: the normal form follows no published
// algorithm, only the file format (ISO 32000-1 and 32000-2) and what
// generators (Ghostscript, Cairo, ReportLab, qpdf, iText, OpenPDF) were
// seen to change between runs.
package pdfdigest
