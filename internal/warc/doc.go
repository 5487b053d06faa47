// Package warc reads and writes WARC 1.1 files (ISO 28500:2017, "WARC
// File Format 1.1"), by hand with the standard library: no Go WARC library
// is available here.
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
//     WARC-Segment-Total-Length. The segments must follow each other in
//     the stream read (other records between them or not) and be whole
//     by MaxBlock bytes kept at once: a record whose segments run into
//     the next file of a crawl is reported incomplete, not joined across
//     files (warcio does not join segments at all).
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
package warc
