package warc

import (
	"bufio"
	"bytes"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
)

// HTTPResponseHead returns the HTTP/1.1 status line and header lines of a
// response (ending with the blank line), headers in sorted order and
// Content-Length set to contentLength (or left out if negative).
func HTTPResponseHead(status int, h http.Header, contentLength int) []byte {
	var b bytes.Buffer
	text := http.StatusText(status)
	if text == "" {
		text = "Status"
	}
	fmt.Fprintf(&b, "HTTP/1.1 %03d %s\r\n", status, text)
	h = h.Clone()
	if h == nil {
		h = http.Header{}
	}
	h.Del("Content-Length")
	h.Del("Transfer-Encoding")
	h.Del("Content-Encoding") // bodies are stored decoded
	if contentLength >= 0 {
		h.Set("Content-Length", strconv.Itoa(contentLength))
	}
	keys := make([]string, 0, len(h))
	for k := range h {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		for _, v := range h[k] {
			// A value cannot break the header: line ends become spaces.
			fmt.Fprintf(&b, "%s: %s\r\n", k, strings.NewReplacer("\r", " ", "\n", " ").Replace(v))
		}
	}
	b.WriteString("\r\n")
	return b.Bytes()
}

// HTTPRequest returns a GET request for target as a request record's block.
func HTTPRequest(target string, userAgent string) ([]byte, error) {
	u, err := url.Parse(target)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "GET %s HTTP/1.1\r\nHost: %s\r\n", u.RequestURI(), u.Host)
	if userAgent != "" {
		fmt.Fprintf(&b, "User-Agent: %s\r\n", userAgent)
	}
	b.WriteString("Connection: close\r\n\r\n")
	return b.Bytes(), nil
}

// ParseHTTPResponse reads an HTTP response from a response (or revisit)
// record's block: the status, the header (Transfer-Encoding included), and
// the payload (the rest of the block, exactly, its codings left in: see
// DecodePayload; a revisit has none).
func ParseHTTPResponse(block []byte) (status int, h http.Header, payload []byte, err error) {
	// The version is read as HTTP/1.1 when Go's reader would refuse it:
	// "HTTP/1.x" (the standard's own revisit example), "HTTP/2" and
	// "HTTP/3" (HTTP/2 and 3 exchanges written as text, as StormCrawler
	// and Zeno write them), or in lower case.
	if version, rest, found := bytes.Cut(block, []byte(" ")); found && len(version) > len("HTTP/") &&
		bytes.EqualFold(version[:len("HTTP/")], []byte("HTTP/")) && !bytes.ContainsAny(version, "\r\n") {
		if _, _, ok := http.ParseHTTPVersion(string(version)); !ok {
			block = append([]byte("HTTP/1.1 "), rest...)
		}
	}
	rd := bytes.NewReader(block)
	br := bufio.NewReader(rd)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		return 0, nil, nil, fmt.Errorf("warc: http response: %w", err)
	}
	defer resp.Body.Close()
	if len(resp.TransferEncoding) > 0 {
		// ReadResponse moves the field out of the header; the payload
		// keeps the coding, so the header says so (DecodePayload).
		resp.Header["Transfer-Encoding"] = resp.TransferEncoding
	}
	// The payload is what follows the header in the block, whatever
	// Content-Length says (a record keeps what was received): the bytes
	// ReadResponse left unread, however the header's lines ended.
	return resp.StatusCode, resp.Header, block[len(block)-rd.Len()-br.Buffered():], nil
}
