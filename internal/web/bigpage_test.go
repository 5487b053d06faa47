package web

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil/internal/warehouse"
	"github.com/vigil-web/vigil/markup"
	"github.com/vigil-web/vigil/simulate"
	"github.com/vigil-web/vigil/tree"
)

// bigPagePair returns a generated page of about size bytes of HTML
// (simulate's text page: an article of long paragraphs) and a new
// version of it with the second word of every tenth paragraph rewritten
// (rewrittenK, K the paragraph's index), and how many changed.
func bigPagePair(tb testing.TB, size int) (old, new []byte, changed int) {
	tb.Helper()
	doc, err := simulate.Generate(simulate.TextPage, size, 1)
	if err != nil {
		tb.Fatal(err)
	}
	var a, b bytes.Buffer
	if err := markup.WriteHTML(&a, doc, nil); err != nil {
		tb.Fatal(err)
	}
	k := 0
	tree.Walk(doc.Root, func(n *tree.Node) bool {
		if n.Kind != tree.Element || n.Name != "p" {
			return true
		}
		if k%10 == 0 {
			// A paragraph opens with its text (simulate's paragraph).
			words := strings.Fields(n.Children[0].Value)
			words[1] = fmt.Sprintf("rewritten%d", k)
			n.Children[0].Value = strings.Join(words, " ")
			changed++
		}
		k++
		return false
	})
	if err := markup.WriteHTML(&b, doc, nil); err != nil {
		tb.Fatal(err)
	}
	return a.Bytes(), b.Bytes(), changed
}

// putBigPages stores two versions of http://a.example/big, watched by
// u, with the bodies old and new, in s's warehouse (useWarehouse), and
// returns the resource's id and the versions'.
func putBigPages(tb testing.TB, s *Server, w *warehouse.Warehouse, old, new []byte) (resource, from, to int64) {
	tb.Helper()
	ctx := context.Background()
	at := time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC)
	var ids [2]int64
	for i, body := range [][]byte{old, new} {
		v, err := w.Put(ctx, &warehouse.Fetch{URL: "http://a.example/big", FetchedAt: at.Add(time.Duration(i) * time.Hour), Status: 200, ContentType: "text/html", Body: body})
		if err != nil {
			tb.Fatal(err)
		}
		ids[i], resource = v.ID, v.ResourceID
	}
	return resource, ids[0], ids[1]
}
