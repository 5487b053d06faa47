package render_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/render"
)

// TestWriteTextWhiteSpace: a change of white space only, which the HTML
// policy keeps between inline content, is shown quoted in the text view;
// it read "Alpha → Alpha", and an inserted space as nothing.
func TestWriteTextWhiteSpace(t *testing.T) {
	for _, tc := range []struct{ old, new, want string }{
		{`<p>Alpha <b>x</b> beta</p>`, `<p>Alpha<b>x</b>beta</p>`, `"Alpha " → "Alpha"`},
		{`<p><b>x</b><i>y</i></p>`, `<p><b>x</b> <i>y</i></p>`, `+ /html[1]/body[1]/p[1]/text()[1]: " "`},
		// A long text whose last word changed is no white-space change.
		{`<p>` + strings.Repeat("word ", 300) + `end</p>`, `<p>` + strings.Repeat("word ", 300) + `fin</p>`, ` → word word`},
		{`<p>` + strings.Repeat("word ", 300) + `end <b>x</b></p>`, `<p>` + strings.Repeat("word ", 300) + `end<b>x</b></p>`, `: …"word word word word word end " → …"word word word word word end"`},
	} {
		old, d := pair(t, "<html><body>"+tc.old+"</body></html>", "<html><body>"+tc.new+"</body></html>")
		a, err := render.Annotate(old, d)
		if err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		if err := a.WriteText(&got); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(got.String(), tc.want) || got.Len() > 2000 {
			t.Errorf("%s -> %s:\n%s\nwant a line with %s", tc.old, tc.new, got.String(), tc.want)
		}
	}
}
