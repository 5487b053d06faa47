package warc

import (
	"bufio"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"fmt"
	"io"
	"net/http"
	"net/http/httputil"
	"strconv"
	"strings"
)

// Decoders undo the content codings DecodePayload does not know itself,
// by coding name in lower case ("br"): each returns a reader of what r
// decodes to, or an error if r cannot start a stream of its coding. The
// package reads WARC with the standard library alone, and so undoes only
// the codings it has (gzip, deflate); a user with a decoder for another
// (brotli, an outside module) passes it in.
type Decoders map[string]func(r io.Reader) (io.Reader, error)

// DecodePayload returns the entity a response's payload carries: the
// payload with its chunked transfer coding removed and its content codings
// (gzip, x-gzip, deflate, identity, and those more has decoders for)
// undone, in the order h lists them, as a client receiving it would read
// it. Records keep what was received, so a tool that recorded the wire
// bytes leaves both in; one that recorded the body decoded but the header
// as sent leaves neither, and a payload that is not chunked or not gzip
// (by its first bytes) is taken as decoded already, as warcio takes it;
// one whose first chunk is whole but whose chunks then break off is an
// error, not a body with its chunk sizes in it. An empty payload (a
// redirect's or a 304's, sent with the header of the body it stands for)
// is the empty entity under any coding: there is nothing to decode. A
// coding of more has no first bytes to tell it by: a payload that its
// decoder refuses is an error. An unknown coding (br without a decoder, compress...) is an
// error, as is an entity longer than limit bytes (or MaxBlock, if limit
// is not positive), each coding read no further than that: a
// decompression bomb is refused, not expanded.
func DecodePayload(h http.Header, payload []byte, limit int, more Decoders) ([]byte, error) {
	if limit <= 0 || limit > MaxBlock {
		limit = MaxBlock
	}
	for _, te := range codings(h.Values("Transfer-Encoding")) {
		if te != "chunked" {
			continue
		}
		b, err := io.ReadAll(io.LimitReader(httputil.NewChunkedReader(bytes.NewReader(payload)), int64(limit)+1))
		switch {
		case err == nil && len(b) > limit:
			// Said so now: a content coding of it cut at the limit
			// would fail as cut short.
			return nil, fmt.Errorf("warc: chunked transfer coding: decoded payload longer than %d bytes", limit)
		case err == nil:
			payload = b
		case firstChunkWhole(payload):
			// Chunked, and cut short or broken after: a part of the
			// body, not one to keep with its chunk sizes in it.
			return nil, fmt.Errorf("warc: chunked transfer coding: %w after %d bytes", err, len(b))
		}
		break
	}
	ce := codings(h.Values("Content-Encoding"))
	for i := len(ce) - 1; i >= 0 && len(payload) > 0; i-- { // the last applied is undone first
		var zr io.Reader
		var err error
		switch ce[i] {
		case "identity":
			continue
		case "gzip", "x-gzip":
			if !bytes.HasPrefix(payload, []byte{0x1f, 0x8b}) {
				continue // decoded already
			}
			zr, err = gzip.NewReader(bytes.NewReader(payload))
		case "deflate":
			// RFC 9110 says zlib; some servers send raw deflate.
			if zr, err = zlib.NewReader(bytes.NewReader(payload)); err != nil {
				zr, err = flate.NewReader(bytes.NewReader(payload)), nil
			}
		default:
			decode := more[ce[i]]
			if decode == nil {
				return nil, fmt.Errorf("warc: content coding %q cannot be decoded", ce[i])
			}
			zr, err = decode(bytes.NewReader(payload))
		}
		if err != nil {
			return nil, fmt.Errorf("warc: content coding %s: %w", ce[i], err)
		}
		b, err := io.ReadAll(io.LimitReader(bufio.NewReader(zr), int64(limit)+1))
		if err != nil {
			return nil, fmt.Errorf("warc: content coding %s: %w", ce[i], err)
		}
		if len(b) > limit {
			return nil, fmt.Errorf("warc: content coding %s: decoded payload longer than %d bytes", ce[i], limit)
		}
		payload = b
	}
	if len(payload) > limit {
		return nil, fmt.Errorf("warc: decoded payload longer than %d bytes", limit)
	}
	return payload, nil
}

// firstChunkWhole reports whether payload starts with a whole chunk of
// the chunked transfer coding: a line of a hexadecimal size (and
// extensions), that many bytes, and a line end. A payload that does not
// is taken as decoded already.
func firstChunkWhole(payload []byte) bool {
	line, rest, ok := bytes.Cut(payload, []byte("\n"))
	if !ok {
		return false
	}
	hex, _, _ := bytes.Cut(bytes.TrimSuffix(line, []byte("\r")), []byte(";"))
	hex = bytes.TrimRight(hex, " \t")
	if len(hex) == 0 || len(hex) > 16 {
		return false
	}
	size, err := strconv.ParseUint(string(hex), 16, 64)
	if err != nil || size > uint64(len(rest)) {
		return false
	}
	rest = rest[size:]
	return bytes.HasPrefix(rest, []byte("\r\n")) || bytes.HasPrefix(rest, []byte("\n"))
}

// codings splits header values listing codings ("gzip, br") into lower-case
// names.
func codings(values []string) []string {
	var out []string
	for _, v := range values {
		for c := range strings.SplitSeq(v, ",") {
			if c = strings.ToLower(strings.TrimSpace(c)); c != "" {
				out = append(out, c)
			}
		}
	}
	return out
}
