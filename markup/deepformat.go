package markup

import (
	"bytes"
	"io"
	"strings"

	"golang.org/x/net/html"
)

// maxFormatting is how many formatting elements (font, b, span...) are kept
// open at once when a page is read again after golang.org/x/net/html
// refused it for nesting more than 512 elements.
const maxFormatting = 200

// formattingElements are the inline elements old pages open without
// closing: <font> on every line, a <b> never ended. Browsers nest them as
// deep as they come; x/net/html stops at 512 open elements.
var formattingElements = map[string]bool{"font": true, "b": true, "i": true, "u": true, "s": true, "strike": true,
	"em": true, "strong": true, "small": true, "big": true, "span": true, "tt": true, "code": true, "nobr": true}

// capFormatting returns data with the start tags of formatting elements
// beyond maxFormatting open ones left out, and as many of their end tags:
// the page's text stays, in one element fewer per tag dropped. It is the
// second try at a page the HTML parser refused as too deep; a page nested
// deep in other elements is refused still.
func capFormatting(data []byte) []byte {
	z := html.NewTokenizer(bytes.NewReader(data))
	var out bytes.Buffer
	out.Grow(len(data))
	open := 0
	dropped := map[string]int{} // end tags still to drop, by name
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			if z.Err() == io.EOF {
				return out.Bytes()
			}
			return data // read as it was: the parser will say what is wrong
		}
		raw := z.Raw()
		switch tt {
		case html.StartTagToken:
			name, _ := z.TagName()
			if n := strings.ToLower(string(name)); formattingElements[n] {
				if open >= maxFormatting {
					dropped[n]++
					continue
				}
				open++
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			if n := strings.ToLower(string(name)); formattingElements[n] {
				if dropped[n] > 0 {
					dropped[n]--
					continue
				}
				open = max(0, open-1)
			}
		}
		out.Write(raw)
	}
}
