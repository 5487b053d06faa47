package markup_test

import (
	"strings"
	"testing"

	"github.com/vigil-web/vigil/markup"
)

// TestJoinTexts: texts of different elements are apart, in XML always and
// in HTML where an element that is not inline parts them; a word split by
// inline HTML markup stays whole.
func TestJoinTexts(t *testing.T) {
	tests := []struct {
		name, doc, want string
	}{
		{"atom entry", `<entry><title>Post two</title><id>urn:2</id><updated>2026-11-02T00:00:00Z</updated></entry>`, "Post two| urn:2| 2026-11-02T00:00:00Z"},
		{"xml mixed content", `<note>Read <b>this</b> first</note>`, "Read | this|  first"},
		{"xml word split by an element", `<note>pri<b>ce</b></note>`, "pri| ce"},
		{"xml comment between", `<note>pri<!-- x -->ce</note>`, "pri|ce"},
		{"html word split by inline markup", `<!DOCTYPE html><html><body><p>pri<b>ce</b></p></body></html>`, "pri|ce"},
		{"html inline side by side", `<!DOCTYPE html><html><body><p><span>$</span><span>10</span> <i>now</i></p></body></html>`, "$|10| |now"},
		{"html paragraphs", `<!DOCTYPE html><html><body><p>one</p><p>two</p></body></html>`, "one| two"},
		{"html line break", `<!DOCTYPE html><html><body><p>Call us<br>today</p></body></html>`, "Call us| today"},
		{"html cells", `<!DOCTYPE html><html><body><table><tr><td>Kiwi</td><td>5€</td></tr></table></body></html>`, "Kiwi| 5€"},
		{"html block inside inline", `<!DOCTYPE html><html><body><a href="/">Home<div>Page</div></a></body></html>`, "Home| Page"},
		{"html custom element", `<!DOCTYPE html><html><body><p>pri<x-b>ce</x-b></p></body></html>`, "pri|ce"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			doc, _, err := markup.ParseBytes([]byte(tc.doc), nil)
			if err != nil {
				t.Fatal(err)
			}
			root := doc.Root
			html := strings.EqualFold(root.Name, "html")
			if html {
				root = root.Children[len(root.Children)-1] // body: leave the head's title out
			}
			var got []string
			markup.JoinTexts(root, html, func(sep, text string) bool {
				got = append(got, sep+text)
				return true
			})
			if g := strings.Join(got, "|"); g != tc.want {
				t.Errorf("%s: texts %q, want %q", tc.doc, g, tc.want)
			}
		})
	}
	t.Run("stops", func(t *testing.T) {
		doc, _, err := markup.ParseBytes([]byte(`<a><b>1</b><b>2</b><b>3</b></a>`), nil)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		markup.JoinTexts(doc.Root, false, func(sep, text string) bool {
			got = append(got, sep+text)
			return len(got) < 2
		})
		if g := strings.Join(got, "|"); g != "1| 2" {
			t.Errorf("texts %q, want %q", g, "1| 2")
		}
	})
}
