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
// value (white space and comments between tokens aside, a reference's,
// N G R, too: "1  0\nR" is "1 0 R"; not a string's, nor a stream's
// data), each stream's bytes. An object stream (/Type /ObjStm, where the
// Info dictionary sits in files of PDF 1.5 and later) and a metadata
// stream are decoded (ISO 32000-1 §7.4: filter.go), under
// Options.InflateCap bytes over the file, and their objects and packets
// read as the file's are. The
// filters decoded are FlateDecode and LZWDecode, each with its
// /DecodeParms: the PNG predictors (/Predictor 10 to 15) and TIFF
// predictor 2, of any /Colors, /BitsPerComponent and /Columns
// (predictor.go), LZWDecode of either /EarlyChange (lzw.go), and
// ASCIIHexDecode and ASCII85Decode, alone or in a chain. A stream that
// does not decode, under another filter, or past the cap, is hashed as
// its bytes, and SumResult says which and why (Result.Undecoded).
//
// # Encrypted files
//
// A file encrypted by the standard security handler (ISO 32000-1 §7.6.3,
// ISO 32000-2 §7.6.4) with an empty user password, the usual "protected"
// PDF that opens without one, is hashed as its plaintext (encrypt.go):
//
//  1. A first read of its objects finds the trailer (or the
//     cross-reference stream's dictionary) that names /Encrypt, its
//     /ID, and the /Encrypt dictionary.
//  2. The file key of the empty password: for revisions 2 to 4 (RC4 of
//     40 to 128 bits, AESV2) by Algorithm 2 of ISO 32000-1 §7.6.3.3,
//     checked against /U by Algorithms 4 and 5 as Algorithm 6 does, of
//     the length the /Encrypt dictionary's /Length gives (40 bits
//     without one), or else, of V 4, the RC4 crypt filter's /Length
//     (the one /StmF names, or /StrF), which some writers give alone; for
//     revision 6 (AESV3) by Algorithm 2.A of ISO 32000-2 §7.6.4.3.3,
//     its hash Algorithm 2.B, and for revision 5 (Adobe's extension
//     level 3, deprecated) by its SHA-256, /UE decrypted to the key; of
//     revision 6, /Perms checked as Algorithm 13 does (decrypted under
//     the key, its bytes 9 to 11 "adb").
//  3. Each string and stream of an object decrypted (Algorithm 1's key
//     per object for RC4 and AESV2; the file key for AESV3), by the
//     crypt filters /StrF and /StmF name (V 4 and 5), but for the
//     /Encrypt dictionary's strings, a signature's /Contents (of a
//     dictionary with a /ByteRange), a cross-reference stream, and a
//     metadata stream where /EncryptMetadata is false, which are in the
//     clear. An object stream's objects are decrypted with it.
//  4. The plaintext hashed by the rules above: its dates, /ID and XMP
//     left out. A decrypted string is hashed as a literal string, (, )
//     and \ escaped, whatever its form in the file.
//
// The key derivation takes /ID[0], and AES a vector at random for each
// string and stream: the ciphertext is new at every run, the plaintext
// is not, and only it is hashed. Of the /Encrypt dictionary, /O, /U,
// /OE, /UE and /Perms are left out (drawn from the /ID, or, for AES-256,
// at random); /Filter, /V, /R, /P, /Length and the crypt filters are
// hashed. A file that opens with a user password only, or under another
// security handler (/Adobe.PubSec), version or revision, or a crypt
// filter other than /V2, /AESV2, /AESV3 and /Identity, or of revision 6
// whose /Perms does not check, is an
// *EncryptedError: the caller decides what to hash instead (Vigil's
// crawl hashes its bytes, and says why).
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
//   - An encrypted file that opens with a user password only is an
//     *EncryptedError, and so is one under the public-key handler or an
//     unknown revision, or of revision 6 whose /Perms does not check:
//     hashed as its bytes by the caller, each run a change. Only the
//     empty user password is tried; the owner password is never needed.
//   - An encrypted file hashes otherwise than the same file in the
//     clear (its strings in another form, its /Encrypt dictionary
//     hashed), and otherwise again under another algorithm or revision.
//   - A string or stream that does not decrypt (AES data not of whole
//     blocks, or its padding wrong) is hashed as read, and SumResult
//     says so. A stream's own /Crypt filter other than /Identity is not
//     decoded (no generator seen writes one).
//   - A PDF 2.0 file that keeps its title, author and keywords in XMP
//     alone: the packets are left out, so a new title there is no change.
//   - An object or metadata stream under a filter of images (DCTDecode,
//     JPXDecode, JBIG2Decode, CCITTFaxDecode) or RunLengthDecode, with
//     /DecodeParms given by reference, or with a /Predictor,
//     /BitsPerComponent, /Colors (above 256) or /Columns (above 2^24)
//     outside ISO 32000-1 Table 8, is hashed as its bytes, so the dates
//     in it are a change; SumResult says which and why.
//   - Content streams are bytes: a generator that writes the same page
//     with other operators, or another compression level, makes a change.
//   - An object of more than 131 072 values is not read (each is held
//     until the object is written: some 20 MB of heap at most), nor one
//     nested more than 256 deep (ISO 32000-1 Annex C gives 28).
//   - An encrypted file is read twice (the first read finds its trailer,
//     which comes last): some twice the time of a file in the clear.
//
// # Departures from ISO 32000
//
//   - LZWDecode is decoded here, not by compress/lzw, which reads GIF's
//     variant alone (codes widened late, /EarlyChange 0): PDF's default
//     is TIFF's (/EarlyChange 1), which golang.org/x/image/tiff/lzw
//     reads, outside the standard library. Data without an end-of-data
//     code ends where it ends, as readers have it.
//   - A last row shorter than /Columns under a predictor is decoded as
//     far as it goes, as readers do; a PNG row filter byte other than 0
//     to 4 is an error (the stream is hashed as its bytes).
//   - An odd last ASCIIHexDecode digit is followed by 0 (as the
//     standard says); a character that is no hex digit nor white space
//     is an error. ASCII85Decode reads from an optional <~.
//   - A crypt filter's /Length (ISO 32000-1 Table 25: in bits) is read
//     as bytes up to 32 and as bits above, as readers do: the standard
//     security handler's writers give it in bytes (16 for 128 bits), and
//     others in bits. One that is no key of 40 to 128 bits in steps of
//     8, of a file whose key is not of the /Encrypt dictionary's length,
//     is an *EncryptedError.
//   - Of revision 6's /Perms, bytes 9 to 11 alone are checked
//     (Algorithm 13), not its permissions against /P, nor its
//     /EncryptMetadata flag: Sum enforces no permission. Revision 5's
//     /Perms is not checked.
//   - Revision 5 (AES-256 of Adobe's extension level 3, which ISO
//     32000-2 deprecates) is read, as readers still do.
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
