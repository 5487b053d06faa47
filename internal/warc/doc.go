// Package warc reads and writes WARC 1.1 files (ISO 28500:2017, "WARC
// File Format 1.1"), and reads ARC files (the Internet Archive's format
// before WARC, "ARC File Format", version 1.0, 1996, and its version 2),
// by hand with the standard library: no Go WARC or ARC library is
// available here.
//
// # Format choices
//
//   - Records are written as "WARC/1.1" and read as 1.1, 1.0, or the
//     drafts 0.18 and 0.17 that early Heritrix wrote (they differ in
//     nothing this package relies on; 1.0 files abound, and warcio reads
//     0.17 and 0.18 too).
//   - Each record is its own gzip member (a multi-member .warc.gz file), as
//     the standard's Annex D recommends and the Internet Archive's tools
//     (warcio, pywb, the Wayback Machine) expect, so a record can be read
//     from its offset alone. The reader also takes uncompressed WARC.
//   - Header fields are written in a fixed order (WARC-Type, WARC-Record-ID,
//     WARC-Date, then the others as given, Content-Length last but one and
//     Content-Type before it), CRLF line ends, a blank line, the block, and
//     two CRLFs. Field names are matched case-insensitively on reading, and
//     continuation lines (leading space or tab) are folded.
//   - WARC-Record-ID and the ids in WARC-Concurrent-To, WARC-Refers-To and
//     WARC-Warcinfo-ID are written in angle brackets ("<urn:uuid:...>"),
//     as the 1.1 grammar has them; the reader accepts them with or without.
//   - WARC-Date is UTC with a "Z", to the second, with a fraction of a
//     second only when the time has one (1.1 allows it; Vigil keeps the
//     fetch time to the nanosecond and a round trip keeps it).
//   - Digests are "sha1:" followed by the base32 (RFC 4648, upper case) of
//     the SHA-1, as Heritrix and the IA tools write them: WARC-Block-Digest
//     over the whole block, WARC-Payload-Digest over the HTTP entity body.
//     The reader verifies the block digest when asked (Reader.Verify).
//   - The reader's errors name the record by its number and its offset
//     in the stream as read (in a .warc.gz file, its uncompressed bytes,
//     since a record need not start a gzip member), and, when it starts a
//     gzip member, that member's offset in the file (Reader.Where), the
//     one a CDX index gives. A block longer than
//     Reader.MaxBlock is read past, not kept, and reported (ErrTooLong),
//     so that the records after it can be read; so is a record without
//     WARC-Type, WARC-Record-ID or WARC-Date (MissingFieldError), returned
//     with its block. Without Content-Length a record has no end: the
//     reader stops there.
//   - A record split in segments (section 6.7) is joined by a Joiner: its
//     first segment's header (less WARC-Segment-Number, and
//     WARC-Block-Digest, which was that segment's) and the blocks of its
//     segments in the order of their numbers, checked against
//     WARC-Segment-Total-Length. The segments may be read in any order
//     (other records between them or not), across the files of a crawl
//     read in turn, in whatever order they are given, and must be whole
//     by MaxBlock bytes kept at once (warcio does not join segments at
//     all).
//   - A revisit record uses the profile
//     http://netpreserve.org/warc/1.1/revisit/identical-payload-digest: its
//     block is the HTTP response header only, WARC-Refers-To names the
//     response with the same payload, and WARC-Payload-Digest is that
//     payload's digest.
//   - A response's payload is kept as it was received; DecodePayload
//     removes its chunked transfer coding and undoes its content codings
//     (gzip, deflate, and those its caller passes Decoders for: brotli is
//     an outside module) for a reader that wants the entity, each read no
//     further than a limit. It takes a payload already decoded under a
//     header that says otherwise (not chunked, or not gzip by its first
//     bytes) as it is (as warcio does), since some tools record it so; a
//     coding with no first bytes to tell it by (deflate, br) is undone or
//     an error (warcio would keep the payload as it is), and an empty
//     payload is the empty entity. A payload whose first chunk is whole
//     but whose chunks then break off is an error: part of a body (warcio
//     keeps the part decoded).
//
// # ARC files
//
// An ARC file starts with its filedesc:// record, whose block is the
// version block ("1 0 Alexa Internet", then the line naming the fields of
// a header line); the records after it are a one-line header ("URL
// IP-address Archive-date Content-type Archive-length" in version 1;
// Result-code, Checksum, Location, Offset and Filename before the length
// in version 2), a newline, Archive-length bytes of block (an HTTP
// response, as fetched), and a newline. A .arc.gz file is a gzip member a
// record, as a .warc.gz file is. NewReader tells ARC from WARC by the
// first bytes of the stream (decompressed): "filedesc://". Reader.Next
// returns each ARC record as a WARC record, so that a reader of WARC
// reads ARC unchanged:
//
//   - the filedesc record is a warcinfo record, its block the version
//     block; a block that starts "HTTP/" is a response record
//     (Content-Type application/http; msgtype=response); any other (a
//     dns: lookup, a document without headers) a resource record of the
//     header line's Content-type;
//   - WARC-Target-URI is the URL, WARC-IP-Address the IP-address,
//     WARC-Date the Archive-date (YYYYMMDDhhmmss, UTC), and
//     WARC-Record-ID, which ARC has none of, a UUID derived from the URL,
//     the date and the record's offset, so that a file read twice gives
//     the same ids; Record.Version is "ARC/1" or "ARC/2".
//
// Departures from the ARC description, each for files met in the wild:
//
//   - The length is the header line's last field, the URL all the fields
//     before the four (version 2: nine) that follow it: a URL with a
//     space in it (early crawlers wrote some unescaped) is kept whole.
//   - An Archive-date of fewer digits (to the minute, hour, day, month
//     or year) is taken at its precision; digits past the fourteenth (a
//     fraction of a second) are dropped; a date that is no number is
//     passed on as it is, for the caller's ParseDate to refuse.
//   - The newline after a block is not required: records are read by
//     their lengths, and blank lines between them are skipped, since
//     some writers leave it out or write two.
//   - The version 2 Checksum is not verified (its algorithm is not
//     given), nor any field but the five above used.
//   - A file without its filedesc:// record is not told from garbage,
//     and is read as WARC (an error naming its first line).
package warc
