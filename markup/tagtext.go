package markup

import (
	"bytes"
	"strings"
)

// The text the HTML tokenizer reads no start tag in, for the scanners that
// read tags without it: HTMLLinks, and a caller reading the tags of a text
// (intent reads the href and src of HTML read as text). Each takes a text
// as a string or a []byte.

// rawText are the elements whose content x/net/html reads as text up to
// their end tag: no tag starts in it.
var rawText = []string{"iframe", "noembed", "noframes", "noscript", "plaintext", "script", "style", "textarea", "title", "xmp"}

// RawTextElement returns the name, in lower case, of the raw text element
// a start tag named name (in any ASCII case) opens: one whose content the
// tokenizer reads as text up to its end tag (script, style, title,
// textarea...), so that no tag starts in it; "" for another.
func RawTextElement(name string) string {
	for _, r := range rawText {
		if asciiEqualFold(name, r) {
			return r
		}
	}
	return ""
}

// RawTextEnd returns where the text of raw text element name
// (RawTextElement, in lower case), from b[i] on, ends as the tokenizer
// reads it: at its end tag ("</name" then white space, "/" or ">", the
// name in any case), or at b's end (always for plaintext).
func RawTextEnd[T string | []byte](b T, i int, name string) int {
	if name == "plaintext" {
		return len(b)
	}
	for {
		k := indexEndTag(b[i:])
		if k < 0 {
			return len(b)
		}
		i += k
		end := i + 2 + len(name)
		if end <= len(b) && asciiEqualFold(b[i+2:end], name) && (end == len(b) || isTagEnd(b[end])) {
			return i
		}
		i += 2
	}
}

// indexEndTag returns the offset of the first "</" in b, -1 if none.
func indexEndTag[T string | []byte](b T) int {
	switch b := any(b).(type) {
	case string:
		return strings.Index(b, "</")
	case []byte:
		return bytes.Index(b, []byte("</"))
	}
	return -1
}

// CommentEnd returns where the comment whose "<!--" ends at b[i] ends, as
// the tokenizer reads it: after its "-->" or "--!>" (which may follow at
// once: "<!-->" and "<!--->" end where they begin), or at b's end.
func CommentEnd[T string | []byte](b T, i int) int {
	for _, empty := range []string{">", "->"} {
		if len(b)-i >= len(empty) && string(b[i:i+len(empty)]) == empty {
			return i + len(empty)
		}
	}
	for k := i; k < len(b); k++ {
		if b[k] != '-' || k+1 >= len(b) || b[k+1] != '-' {
			continue
		}
		j := k + 2
		for j < len(b) && b[j] == '-' { // "--->" ends it too
			j++
		}
		k = j - 1 // the dashes are read once
		if j < len(b) && b[j] == '>' {
			return j + 1
		}
		if j+1 < len(b) && b[j] == '!' && b[j+1] == '>' {
			return j + 2
		}
	}
	return len(b)
}
