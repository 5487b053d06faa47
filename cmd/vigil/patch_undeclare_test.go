package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPatchRefusesUndeclaringAPrefix: a delta operation that gives an
// element xmlns:p="" (an attribute added or changed, or an element
// inserted with it, or such an attribute removed, undone) un-declares
// prefix p, which only XML 1.1 allows: vigil patch refuses it with an
// error that names the delta and the operation, where it wrote XML 1.0
// that is not namespace-well-formed. A document that declares itself XML
// 1.1, and HTML, which has no namespaces, take it.
func TestPatchRefusesUndeclaringAPrefix(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	doc := write("r.xml", `<r xmlns:p="urn:p"><e/></r>`)
	delta := func(ops string) string {
		return "<unit_delta>\n<t>\n" + ops + "\n</t>\n</unit_delta>\n"
	}
	refused := []struct {
		name, delta, op string
	}{
		{"attribute added", delta(`<ai xid="2" a="xmlns:q" v=""/>`), `operation 1 (ai xid=2 a=xmlns:q v="")`},
		{"attribute changed", delta(`<au xid="2" a="xmlns:p" ov="urn:p" nv=""/>`), `operation 1 (au xid=2 a=xmlns:p ov="urn:p" nv="")`},
		{"element inserted", delta(`<i par="1" pos="1" xm="(3)"><f xmlns:q=""/></i>`), `operation 1 (i par=1 pos=1 xm=(3) <f>)`},
	}
	for _, tt := range refused {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := runCLI(t, "", "patch", doc, write("d.xml", tt.delta))
			if code != exitError || out != "" {
				t.Fatalf("exit %d, output %q, want an error and no output", code, out)
			}
			for _, want := range []string{tt.op, `xmlns:`, `=""`, "XML 1.0", "XML 1.1"} {
				if !strings.Contains(errOut, want) {
					t.Errorf("stderr %q does not say %q", errOut, want)
				}
			}
		})
	}
	t.Run("removal undone", func(t *testing.T) {
		from := write("from.xml", `<r xmlns:p="urn:p"><e xmlns:q=""/></r>`)
		to := write("to.xml", `<r xmlns:p="urn:p"><e/></r>`)
		_, d, errOut := runCLI(t, "", "diff", from, to)
		if !strings.Contains(d, `<ad xid="1" a="xmlns:q"`) {
			t.Fatalf("diff: %s%s", d, errOut)
		}
		code, out, errOut := runCLI(t, "", "patch", "--reverse", to, write("rev.xml", d))
		if code != exitError || out != "" || !strings.Contains(errOut, `operation 1 (ai xid=1 a=xmlns:q v="") of the delta undone`) {
			t.Errorf("exit %d, output %q, stderr %q", code, out, errOut)
		}
	})
	t.Run("XML 1.1", func(t *testing.T) {
		doc11 := write("r11.xml", `<?xml version="1.1"?><r xmlns:p="urn:p"><e/></r>`)
		code, out, errOut := runCLI(t, "", "patch", doc11, write("d.xml", delta(`<ai xid="2" a="xmlns:q" v=""/>`)))
		if code != exitOK || !strings.Contains(out, `<r xmlns:p="urn:p" xmlns:q="">`) {
			t.Errorf("exit %d, output %q, stderr %q", code, out, errOut)
		}
	})
	t.Run("HTML", func(t *testing.T) {
		page := write("p.html", `<!DOCTYPE html><html><body><p>a</p></body></html>`)
		// html is XID 5: head 1, the text of p 2, p 3, body 4.
		code, out, errOut := runCLI(t, "", "patch", page, write("h.xml", delta(`<ai xid="5" a="xmlns:q" v=""/>`)))
		if code != exitOK || !strings.Contains(out, `xmlns:q=""`) {
			t.Errorf("exit %d, output %q, stderr %q", code, out, errOut)
		}
	})
}
