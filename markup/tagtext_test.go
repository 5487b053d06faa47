package markup

import "testing"

// TestTagText: where a comment and the text of a raw text element end, as
// the tokenizer reads them, in a string and in a []byte alike; which start
// tags open a raw text element (their name in any ASCII case).
func TestTagText(t *testing.T) {
	for _, tc := range []struct {
		text string // after "<!--"
		want int
	}{
		{"> a", 1}, {"-> a", 2}, {" x --> a", 6}, {" x --!> a", 7}, {" x ---> a", 7},
		{" x -- > --> a", 11}, {" x", 2}, {"", 0}, {" x --", 5},
	} {
		if got, gotBytes := CommentEnd(tc.text, 0), CommentEnd([]byte(tc.text), 0); got != tc.want || gotBytes != tc.want {
			t.Errorf("CommentEnd(%q) = %d (of bytes %d), want %d", tc.text, got, gotBytes, tc.want)
		}
	}
	for _, tc := range []struct {
		name, text string // the text after the start tag
		want       int
	}{
		{"script", `a("</b>")</script>`, 9}, {"script", `a</SCRIPT >`, 1}, {"script", `a</script/>`, 1}, {"script", `a</script`, 1},
		{"script", `a</scripts></script>`, 11}, {"title", `a`, 1}, {"plaintext", `a</plaintext>`, 13},
	} {
		if got, gotBytes := RawTextEnd(tc.text, 0, tc.name), RawTextEnd([]byte(tc.text), 0, tc.name); got != tc.want || gotBytes != tc.want {
			t.Errorf("RawTextEnd(%q, %s) = %d (of bytes %d), want %d", tc.text, tc.name, got, gotBytes, tc.want)
		}
	}
	for name, want := range map[string]string{"SCRIPT": "script", "Title": "title", "xmp": "xmp", "a": "", "scripts": "", "ſcript": "", "": ""} {
		if got := RawTextElement(name); got != want {
			t.Errorf("RawTextElement(%q) = %q, want %q", name, got, want)
		}
	}
}
