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
