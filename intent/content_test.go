package intent

import "testing"

// TestTextAcrossComments: comments, processing instructions, scripts,
// styles and templates are no content, and take no place in the text
// either: the texts on both sides of them read as one text (React's
// server rendering writes <!-- --> between the pieces of a text).
func TestTextAcrossComments(t *testing.T) {
	page := func(body string) string {
		return `<!DOCTYPE html><html><head><title>Shop</title></head><body>` + body + `</body></html>`
	}
	tests := []struct {
		name, old, new, clause string
		want                   bool
	}{
		{"empty comment between text pieces", `<p>Price: $10</p>`, `<p>Price: <!-- -->$10</p>`, `any change`, false},
		{"comment inside a word, all words", `<p>price</p>`, `<p>pri<!-- x -->ce</p>`, `all words`, false},
		{"comment inside a keyword", `<p>sale now</p><p>z</p>`, `<p>sa<!-- x -->le now</p><p>z</p>`, `keywords {sale}`, false},
		{"comment inside a phrase", `<p>sold out</p>`, `<p>sold <!-- -->out</p>`, `phrase {"sold out"}`, false},
		{"comment inside a regex match", `<p>Order by 01.02.2025</p>`, `<p>Order by 01.<!-- -->02.2025</p>`, `regular expression {"\\d{2}\\.\\d{2}\\.\\d{4}"}`, false},
		{"comments gone", `<p>Price: <!-- -->$<!-- -->10</p>`, `<p>Price: $10</p>`, `any change`, false},
		{"script between text pieces", `<p>Price: $10</p>`, `<p>Price: <script>track()</script>$10</p>`, `any change`, false},
		{"processing instruction", `<p>Price: $10</p>`, `<p>Price: <?php echo 1 ?>$10</p>`, `any change`, false},
		{"comment inside a list item", `<ul><li>price</li><li>x</li></ul>`, `<ul><li>pri<!-- x -->ce</li><li>x</li></ul>`, `list`, false},
		{"comment inside a table cell", `<table><tr><td>price</td><td>1</td></tr></table>`, `<table><tr><td>pri<!-- x -->ce</td><td>1</td></tr></table>`, `table`, false},
		{"ignored inline element", `<p>Price: $10</p>`, `<p>Price: <span class="ad">Buy now</span>$10</p>`, `any change Ignore css ".ad"`, false},
		{"text changed next to a comment", `<p>Price: <!-- -->$10</p>`, `<p>Price: <!-- -->$12</p>`, `any change`, true},
		{"text changed and comment added", `<p>Price: $10</p>`, `<p>Price: <!-- -->$12</p>`, `any change`, true},
		{"word changed next to a comment", `<p>pri<!-- x -->ce</p>`, `<p>pri<!-- x -->ze</p>`, `all words`, true},
		{"keyword gone next to a comment", `<p>big <!-- -->sale now</p>`, `<p>big <!-- -->deal now</p>`, `keywords {sale}`, true},
		{"comment parts a word in two", `<p>price</p>`, `<p>pri <!-- x -->ce</p>`, `all words`, true},
		{"paragraphs stay apart", `<p>pri</p><p>ce</p>`, `<p>price</p>`, `all words`, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := evalClause(t, page(tc.old), page(tc.new), tc.clause)
			if r.Matched != tc.want {
				t.Errorf("%s: %s -> %s: matched %v, want %v (%s)", tc.clause, tc.old, tc.new, r.Matched, tc.want, briefs(r.Changes))
			}
		})
	}
}
