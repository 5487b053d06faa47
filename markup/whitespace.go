package markup

// isXMLSpaceByte reports whether c is XML white space: space, tab, newline
// or carriage return.
func isXMLSpaceByte(c byte) bool { return class[c]&cSpace != 0 }

// isHTMLSpaceByte reports whether c is HTML (ASCII) white space: space, tab,
// newline, form feed or carriage return.
func isHTMLSpaceByte(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'
}

// isXMLSpace reports whether s is empty or only XML white space.
func isXMLSpace(s string) bool { return isAll(s, isXMLSpaceByte) }

func isAll(s string, space func(byte) bool) bool {
	for i := 0; i < len(s); i++ {
		if !space(s[i]) {
			return false
		}
	}
	return true
}

// collapseSpace trims white space at both ends of s and replaces every inner
// run of white space with one space. It returns s itself when nothing
// changes, so normalised text usually costs no allocation.
func collapseSpace(s string, space func(byte) bool) string {
	start, end := 0, len(s)
	for start < end && space(s[start]) {
		start++
	}
	for end > start && space(s[end-1]) {
		end--
	}
	s = s[start:end]
	// Is there a run to rewrite: a white-space byte other than a single
	// space?
	clean := true
	for i := 0; i < len(s); i++ {
		if space(s[i]) && (s[i] != ' ' || space(s[i+1])) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	b := make([]byte, 0, len(s))
	inSpace := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if space(c) {
			inSpace = true
			continue
		}
		if inSpace {
			b = append(b, ' ')
			inSpace = false
		}
		b = append(b, c)
	}
	return string(b)
}

// normalizeXMLText applies the Normalize policy to the text v: it returns
// false for white-space-only text, and otherwise v collapsed and trimmed
// (or v as it is, if preserve). It is collapseSpace specialised for XML
// white space, on the parser's hot path.
func normalizeXMLText(v string, preserve bool) (string, bool) {
	start, end := 0, len(v)
	for start < end && class[v[start]]&cSpace != 0 {
		start++
	}
	if start == end {
		return "", false
	}
	if preserve {
		return v, true
	}
	for class[v[end-1]]&cSpace != 0 {
		end--
	}
	v = v[start:end]
	if needsCollapse(v) {
		return collapseSpace(v, isXMLSpaceByte), true
	}
	return v, true
}

// needsCollapse reports whether s, which neither starts nor ends with white
// space, has a byte below 0x20 (tab, newline, carriage return in XML text)
// or two spaces in a row: whether collapseSpace would change it. It looks
// at eight bytes at a time.
func needsCollapse(s string) bool {
	const (
		ones  = 0x0101010101010101
		highs = 0x8080808080808080
		lows  = 0x7f7f7f7f7f7f7f7f
	)
	prevSpace := false
	i := 0
	for ; i+8 <= len(s); i += 8 {
		w := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
		// A byte below 0x20 borrows into its high bit; bytes >= 0x80 are
		// masked out by ^w. Borrows only propagate from such a byte.
		if (w-0x20*ones)&^w&highs != 0 {
			return true
		}
		// The high bit of each byte that is a space (exact, no borrows).
		t := w ^ 0x20*ones
		sp := ^((t&lows + lows) | t) & highs
		if sp&(sp>>8) != 0 || (prevSpace && sp&0x80 != 0) {
			return true
		}
		prevSpace = sp>>63 != 0
	}
	for ; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || (c == ' ' && prevSpace) {
			return true
		}
		prevSpace = c == ' '
	}
	return false
}
