package web

import (
	"context"
	"html"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil/internal/warehouse"
)

// TestDiffChangesImageURL: an image whose relative src changed is named
// by one absolute URL in every view of the diff. The full view's frame
// named it so ("[Image “Logo” http://a.example/shop/img/b.png (was …
// img/a.png)]"), but "only the changes" named it by what the page wrote,
// `"img/a.png" → "img/b.png"`, which leads nowhere from Vigil. The src
// resolves against the page's URL, or its <base href> when it has one,
// as the frame resolves it.
func TestDiffChangesImageURL(t *testing.T) {
	for _, tc := range []struct {
		name     string
		url      string
		head     string // the page's head
		old, new string // the two srcs, absolute
	}{
		{"relative to the page", "http://a.example/shop/p", "", "http://a.example/shop/img/a.png", "http://a.example/shop/img/b.png"},
		{"relative to a base href", "http://b.example/shop/p", `<base href="http://cdn.example/assets/">`, "http://cdn.example/assets/img/a.png", "http://cdn.example/assets/img/b.png"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, u := newTestServer(t)
			w := useWarehouse(t, s)
			createChecked(t, s, u, "Create Sentinel shop Using "+tc.url+" Fetch 1 hour")
			ctx := context.Background()
			at := time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC)
			var ids []string
			var resource int64
			for i, src := range []string{"img/a.png", "img/b.png"} {
				body := `<html><head>` + tc.head + `<title>Shop</title></head><body><h1>Shop</h1><p><img src="` + src + `" alt="Logo"></p></body></html>`
				f := &warehouse.Fetch{URL: tc.url, FetchedAt: at.Add(time.Duration(i) * time.Hour), Status: 200, ContentType: "text/html", Body: []byte(body)}
				v, err := w.Put(ctx, f)
				if err != nil {
					t.Fatal(err)
				}
				ids, resource = append(ids, strconv.FormatInt(v.ID, 10)), v.ResourceID
			}
			c := newSignedIn(t, s, u)
			frame := func(view string) string {
				t.Helper()
				path := "/resources/" + strconv.FormatInt(resource, 10) + "/diff/frame?from=" + ids[0] + "&to=" + ids[1] + "&view=" + view
				status, body := c.do("GET", path, "")
				if status != 200 {
					t.Fatalf("GET %s: %d %s", path, status, body)
				}
				return html.UnescapeString(body)
			}
			inline := frame("inline")
			if want := `[Image “Logo” ` + tc.new + ` (was “Logo” ` + tc.old + `)]`; !strings.Contains(inline, want) {
				t.Errorf("the full view does not name the image %s:\n%s", want, inline)
			}
			changes := frame("changes")
			if want := `"` + tc.old + `" → "` + tc.new + `"`; !strings.Contains(changes, want) {
				t.Errorf("only the changes does not name the image %s:\n%s", want, changes)
			}
			if strings.Contains(changes, `"img/a.png"`) || strings.Contains(changes, `"img/b.png"`) {
				t.Errorf("only the changes names the image by its relative src:\n%s", changes)
			}
		})
	}
}
