package render_test

import (
	"bytes"
	"html"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/delta"
	"github.com/vigil-web/vigil/markup"
	"github.com/vigil-web/vigil/render"
	"github.com/vigil-web/vigil/tree"
	"github.com/vigil-web/vigil/treediff"
)

// pair parses two HTML versions and diffs them as the warehouse does: the
// old document numbered afresh, the delta in its terms.
func pair(t *testing.T, oldHTML, newHTML string) (*tree.Document, *delta.Delta) {
	t.Helper()
	a, err := markup.ParseHTMLBytes([]byte(oldHTML), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := markup.ParseHTMLBytes([]byte(newHTML), nil)
	if err != nil {
		t.Fatal(err)
	}
	a.AssignXIDs()
	d, err := treediff.Diff(a, b, nil)
	if err != nil {
		t.Fatal(err)
	}
	return a, d
}

const (
	v1 = `<html><head><title>Shop</title></head><body><h1>Prices</h1><ul><li>Apple 1€</li><li>Pear 2€</li><li>Plum 3€</li></ul><p>Closed on Sunday</p><p data-vigil="ins">fake</p><div><p>Opening hours</p></div></body></html>`
	v2 = `<html><head><title>Shop</title></head><body><h1>Prices</h1><ul><li>Apple 1€</li><li>Plum 3€</li></ul><p>Closed on Monday</p><p data-vigil="ins">fake</p><div><p>Opening hours</p><table><tr><td>Kiwi 5€ from Tuesday</td></tr></table></div></body></html>`
)

func TestViews(t *testing.T) {
	old, d := pair(t, v1, v2)
	tests := map[string]struct {
		write func(*bytes.Buffer) error
		want  []string
		not   []string
	}{
		"inline": {
			write: func(b *bytes.Buffer) error { return render.Inline(b, old, d) },
			want: []string{`<table data-vigil="ins"><tbody><tr><td>Kiwi 5€ from Tuesday</td></tr></tbody></table>`, `<li data-vigil="del">Pear 2€</li>`,
				`<del data-vigil="upd-old">Closed on Sunday</del><ins data-vigil="upd">Closed on Monday</ins>`,
				`<title>Shop</title>`},
			not: []string{`<p data-vigil="ins">fake`},
		},
		"side by side": {
			write: func(b *bytes.Buffer) error { return render.SideBySide(b, old, d) },
			want: []string{`<div data-vigil="old">`, `<div data-vigil="new">`, `<li data-vigil="del">Pear 2€</li>`,
				`<table data-vigil="ins"><tbody><tr><td>Kiwi 5€ from Tuesday</td></tr></tbody></table>`, `<del data-vigil="upd-old">Closed on Sunday</del>`},
		},
		"only changes": {
			write: func(b *bytes.Buffer) error { return render.OnlyChanges(b, old, d) },
			want:  []string{`Inserted /html[1]/body[1]/div[1]/table[1]`, `Deleted /html[1]/body[1]/ul[1]/li[2]`, `Kiwi 5€`},
			not:   []string{`Apple`},
		},
		"text": {
			write: func(b *bytes.Buffer) error { return render.Text(b, old, d) },
			want: []string{"+ /html[1]/body[1]/div[1]/table[1]: Kiwi 5€ from Tuesday\n", "- /html[1]/body[1]/ul[1]/li[2]: Pear 2€\n",
				"~ /html[1]/body[1]/p[1]/text()[1]: Closed on Sunday → Closed on Monday\n"},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			var b bytes.Buffer
			if err := tc.write(&b); err != nil {
				t.Fatal(err)
			}
			out := b.String()
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("missing %q in\n%s", w, out)
				}
			}
			for _, w := range tc.not {
				if strings.Contains(out, w) {
					t.Errorf("unexpected %q in\n%s", w, out)
				}
			}
		})
	}
}

func TestNoChange(t *testing.T) {
	old, d := pair(t, v1, v1)
	var b bytes.Buffer
	if err := render.Text(&b, old, d); err != nil || b.Len() != 0 {
		t.Fatalf("text of no change: %q, %v", b.String(), err)
	}
	b.Reset()
	if err := render.Inline(&b, old, d); err != nil || strings.Contains(b.String(), "data-vigil=\"") && !strings.Contains(b.String(), "fake") {
		t.Fatalf("inline of no change: %s, %v", b.String(), err)
	}
	if strings.Count(b.String(), "data-vigil") != 0 {
		t.Errorf("marks without a change: %s", b.String())
	}
}

func TestMove(t *testing.T) {
	big := strings.Repeat("long enough text to be matched as a unique subtree ", 4)
	old, d := pair(t, `<html><body><div id="a"><p>`+big+`</p></div><div id="b"><i>x</i></div></body></html>`,
		`<html><body><div id="a"></div><div id="b"><i>x</i><p>`+big+`</p></div></body></html>`)
	var b bytes.Buffer
	if err := render.Inline(&b, old, d); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `data-vigil="move"`) {
		t.Errorf("move not marked:\n%s", b.String())
	}
	b.Reset()
	render.Text(&b, old, d)
	if !strings.Contains(b.String(), "\n> ") {
		t.Errorf("text of a move: %q", b.String())
	}
}

func TestAnnotateErrors(t *testing.T) {
	if _, err := render.Annotate(&tree.Document{}, nil); err == nil {
		t.Error("a document without root: no error")
	}
	old, _ := pair(t, v1, v2)
	bad := &delta.Delta{Ops: []delta.Op{{Kind: delta.Delete, Parent: 9999, Pos: 1, XIDs: tree.XIDMap{}}}}
	if _, err := render.Annotate(old, bad); err == nil {
		t.Error("a delta that does not fit: no error")
	}
}

// TestChangesAttrValue: WriteChanges shows a changed attribute's values
// as Annotated.AttrValue gives them, and as written without it.
func TestChangesAttrValue(t *testing.T) {
	old, d := pair(t, `<html><body><p><img src="img/a.png" alt="Logo"></p></body></html>`,
		`<html><body><p><img src="img/b.png" alt="Logo"></p></body></html>`)
	for _, tc := range []struct {
		name  string
		value func(element, attr, value string) string
		want  string
	}{
		{"as written", nil, `"img/a.png" → "img/b.png"`},
		{"resolved", func(element, attr, value string) string {
			if element == "img" && attr == "src" {
				return "http://a.example/" + value
			}
			return value
		}, `"http://a.example/img/a.png" → "http://a.example/img/b.png"`},
	} {
		a, err := render.Annotate(old, d)
		if err != nil {
			t.Fatal(err)
		}
		a.AttrValue = tc.value
		var b bytes.Buffer
		if err := a.WriteChanges(&b); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), "Changed attribute src of") || !strings.Contains(b.String(), tc.want) {
			t.Errorf("%s: the changes do not say %s:\n%s", tc.name, tc.want, b.String())
		}
	}
}

// TestTextAttrValue: WriteText, the text format, shows a changed
// attribute's values as Annotated.AttrValue gives them (a page's image by
// its absolute URL), as WriteChanges does, and as written without it.
func TestTextAttrValue(t *testing.T) {
	old, d := pair(t, `<html><body><p><img src="img/a.png" alt="Logo"></p></body></html>`,
		`<html><body><p><img src="img/b.png" alt="Logo"></p></body></html>`)
	for _, tc := range []struct {
		name  string
		value func(element, attr, value string) string
		want  string
	}{
		{"as written", nil, `@ /html[1]/body[1]/p[1]/img[1]/@src: "img/a.png" → "img/b.png"` + "\n"},
		{"resolved", func(element, attr, value string) string {
			if element == "img" && attr == "src" {
				return "http://a.example/" + value
			}
			return value
		}, `@ /html[1]/body[1]/p[1]/img[1]/@src: "http://a.example/img/a.png" → "http://a.example/img/b.png"` + "\n"},
	} {
		a, err := render.Annotate(old, d)
		if err != nil {
			t.Fatal(err)
		}
		a.AttrValue = tc.value
		var b bytes.Buffer
		if err := a.WriteText(&b); err != nil {
			t.Fatal(err)
		}
		if b.String() != tc.want {
			t.Errorf("%s: the text is\n%s\nwant\n%s", tc.name, b.String(), tc.want)
		}
	}
}

// TestChangesClipDataURL: only the changes heads a changed inline
// image's data: URL cut around where it changed, as the text format
// shows it, not kilobytes of base64 twice.
func TestChangesClipDataURL(t *testing.T) {
	long := strings.Repeat("QUJD", 5000)
	old, d := pair(t, `<html><body><p><img src="data:image/png;base64,`+long+`" alt="Logo"></p></body></html>`,
		`<html><body><p><img src="data:image/png;base64,`+long+`Rw==" alt="Logo"></p></body></html>`)
	a, err := render.Annotate(old, d)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := a.WriteChanges(&b); err != nil {
		t.Fatal(err)
	}
	want := `"…QUJDQUJDQUJDQUJDQUJDQUJDQUJDQUJDQUJDQUJD" → "…QUJDQUJDQUJDQUJDQUJDQUJDQUJDQUJDQUJDQUJDRw=="`
	if got := html.UnescapeString(b.String()); !strings.Contains(got, want) || len(got) > 2000 {
		if len(got) > 2000 {
			got = got[:2000] + "…"
		}
		t.Errorf("the changes do not say %s:\n%s", want, got)
	}
}

// TestOldAttrValue: a changed attribute's old value is shown as
// Annotated.OldAttrValue gives it (a page whose <base href> changed
// resolves its old src against the old base), the new one as AttrValue
// gives it, in the text format and in only the changes.
func TestOldAttrValue(t *testing.T) {
	old, d := pair(t, `<html><body><p><img src="img/a.png" alt="Logo"></p></body></html>`,
		`<html><body><p><img src="img/b.png" alt="Logo"></p></body></html>`)
	a, err := render.Annotate(old, d)
	if err != nil {
		t.Fatal(err)
	}
	a.AttrValue = func(element, attr, value string) string { return "http://new.example/" + value }
	a.OldAttrValue = func(element, attr, value string) string { return "http://old.example/" + value }
	want := `"http://old.example/img/a.png" → "http://new.example/img/b.png"`
	var text, changes bytes.Buffer
	if err := a.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if err := a.WriteChanges(&changes); err != nil {
		t.Fatal(err)
	}
	for _, got := range []string{text.String(), html.UnescapeString(changes.String())} {
		if !strings.Contains(got, want) {
			t.Errorf("not %s:\n%s", want, got)
		}
	}
}

// TestChangesSameShownValue: only the changes never heads a changed
// attribute with two sides that read the same: where AttrValue (and
// OldAttrValue) name both values alike (a src rewritten to the URL it
// resolved to), it shows them as written and the URL both resolve to.
// It headed "https://a.example/img/a.png" → "https://a.example/img/a.png".
func TestChangesSameShownValue(t *testing.T) {
	old, d := pair(t, `<html><body><p><img src="img/a.png" alt="Logo"></p></body></html>`,
		`<html><body><p><img src="https://a.example/img/a.png" alt="Logo"></p></body></html>`)
	a, err := render.Annotate(old, d)
	if err != nil {
		t.Fatal(err)
	}
	resolve := func(element, attr, value string) string {
		if strings.HasPrefix(value, "https://") {
			return value
		}
		return "https://a.example/" + value
	}
	a.AttrValue, a.OldAttrValue = resolve, resolve
	var b bytes.Buffer
	if err := a.WriteChanges(&b); err != nil {
		t.Fatal(err)
	}
	want := `"img/a.png" → "https://a.example/img/a.png" (both resolve to https://a.example/img/a.png)`
	if got := html.UnescapeString(b.String()); !strings.Contains(got, want) {
		t.Errorf("the changes do not say %s:\n%s", want, got)
	}
}

// TestAttrChange: a changed attribute is said one way wherever a diff
// is shown (only the changes, the text format, the dashboard's full and
// side-by-side views): its two values as shown, or, where two values
// written otherwise are shown alike (a src rewritten to the URL it
// resolved to), as written with the URL both resolve to. The full view
// said " (src was “img/a.png”, the same URL)" beside only the changes'
// " (both resolve to URL)".
func TestAttrChange(t *testing.T) {
	long := strings.Repeat("x", 300)
	for _, tc := range []struct {
		name                                       string
		oldWritten, newWritten, oldShown, newShown string
		want                                       string
	}{
		{"another URL", "a.png", "b.png", "https://a.example/a.png", "https://a.example/b.png",
			`"https://a.example/a.png" → "https://a.example/b.png"`},
		{"the same URL", "img/a.png", "https://a.example/img/a.png", "https://a.example/img/a.png", "https://a.example/img/a.png",
			`"img/a.png" → "https://a.example/img/a.png" (both resolve to https://a.example/img/a.png)`},
		{"a long URL", long + "/a", "https://a.example/" + long + "/a", "https://a.example/" + long + "/a", "https://a.example/" + long + "/a",
			`"` + long[:200] + `…" → "https://a.example/` + long[:182] + `…" (both resolve to https://a.example/` + long[:182] + `…)`},
	} {
		if got := render.AttrChange(tc.oldWritten, tc.newWritten, tc.oldShown, tc.newShown); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
}
