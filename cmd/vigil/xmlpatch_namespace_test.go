package main

import (
	"encoding/xml"
	"io"
	"strings"
	"testing"
)

// elementSpaces returns the namespace of each element named local in an
// XML text, in order, as encoding/xml resolves it.
func elementSpaces(t *testing.T, x, local string) []string {
	t.Helper()
	var out []string
	dec := xml.NewDecoder(strings.NewReader(x))
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatalf("%v\n%s", err, x)
		}
		if s, ok := tok.(xml.StartElement); ok && s.Name.Local == local {
			out = append(out, s.Name.Space)
		}
	}
}

// TestXMLPatchDefaultNamespace: diff --format xmlpatch of an Atom feed
// writes the new entry so that a namespace-aware reader of the patch finds
// it in the Atom namespace, and patch puts it there; an RFC 5261 patch's
// content is in the patch's default namespace, or in none when it declares
// none (RFC 5261 section 4.2.2), whatever the feed's.
func TestXMLPatchDefaultNamespace(t *testing.T) {
	const atom = "http://www.w3.org/2005/Atom"
	dir := t.TempDir()
	v1 := writeFile(t, dir, "v1.xml", `<feed xmlns="`+atom+`"><title>t</title><entry><title>1</title></entry></feed>`)
	v2 := writeFile(t, dir, "v2.xml", `<feed xmlns="`+atom+`"><title>t</title><entry><title>1</title></entry><entry><title>2</title></entry></feed>`)
	code, p, errOut := runCLI(t, "", "diff", "--format", "xmlpatch", v1, v2)
	if code != exitChanged {
		t.Fatalf("diff: exit %d, stderr %q", code, errOut)
	}
	if got := elementSpaces(t, p, "entry"); len(got) != 1 || got[0] != atom {
		t.Errorf("the patch's entry is read in %q, want the Atom namespace:\n%s", got, p)
	}
	code, out, errOut := runCLI(t, "", "patch", v1, writeFile(t, dir, "p.xml", p))
	if code != exitOK {
		t.Fatalf("patch: exit %d, stderr %q", code, errOut)
	}
	if got := elementSpaces(t, out, "entry"); len(got) != 2 || got[0] != atom || got[1] != atom {
		t.Errorf("patched entries in %q, want both in the Atom namespace:\n%s", got, out)
	}
	for _, c := range []struct{ name, patch, want string }{
		{"the patch's default namespace", `<diff xmlns="` + atom + `"><add sel="feed"><entry/></add></diff>`, atom},
		{"none declared", `<diff><add sel="/*"><entry/></add></diff>`, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, out, errOut := runCLI(t, "", "patch", v1, writeFile(t, dir, "q.xml", c.patch))
			if code != exitOK {
				t.Fatalf("exit %d, stderr %q", code, errOut)
			}
			if got := elementSpaces(t, out, "entry"); len(got) != 2 || got[1] != c.want {
				t.Errorf("entries in %q, want the added one in %q:\n%s", got, c.want, out)
			}
		})
	}
}
