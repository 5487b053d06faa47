package web

import (
	"context"
	"encoding/json"
	"html"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil/internal/warehouse"
)

// TestDiffRedirectedPage: the versions of a page read through a redirect
// (http://a.example/old -> http://a.example/new/page) have their
// relative links and images named as they resolve against the URL each
// was read from, in the change records (the API's and the dashboard's),
// the text format and the frame's views, and the API's versions say
// that URL. They were resolved against the resource's URL, /old: the
// image new/img/b.png was named /img/b.png, which the page never showed.
// A redirect that came to lead elsewhere, the body unchanged, moves the
// links with it.
func TestDiffRedirectedPage(t *testing.T) {
	const resource = "http://a.example/old"
	page := func(src, href string) string {
		return `<html><head><title>Shop</title></head><body><h1>Shop</h1><p><img src="` + src + `" alt="Logo"> <a href="` + href + `">next</a></p></body></html>`
	}
	for _, tc := range []struct {
		name        string
		finals      [2]string // where each version was read from
		bodies      [2]string
		old, new    []string // the absolute URLs each version names, not the other
		wantRecords bool     // whether the records of any change name them: not for a body unchanged, whose markup is the same
	}{
		{"the page changes", [2]string{"http://a.example/new/page", "http://a.example/new/page"},
			[2]string{page("img/a.png", "b.html"), page("img/b.png", "c.html")},
			[]string{"http://a.example/new/img/a.png", "http://a.example/new/b.html"},
			[]string{"http://a.example/new/img/b.png", "http://a.example/new/c.html"}, true},
		{"the redirect moves, the body does not", [2]string{"http://a.example/new/page", "http://a.example/newer/page"},
			[2]string{page("img/a.png", "b.html"), page("img/a.png", "b.html")},
			[]string{"http://a.example/new/b.html"},
			[]string{"http://a.example/newer/b.html"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, u := newTestServer(t)
			w := useWarehouse(t, s)
			createChecked(t, s, u, "Create Sentinel shop Using "+resource+" Fetch 1 hour")
			ctx := context.Background()
			at := time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC)
			var ids []string
			var rid int64
			for i := range 2 {
				v, err := w.Put(ctx, &warehouse.Fetch{URL: resource, FinalURL: tc.finals[i], FetchedAt: at.Add(time.Duration(i) * time.Hour),
					Status: 200, ContentType: "text/html", Body: []byte(tc.bodies[i])})
				if err != nil {
					t.Fatal(err)
				}
				if v.URL != tc.finals[i] {
					t.Fatalf("version %d read from %q, want %q", i+1, v.URL, tc.finals[i])
				}
				ids, rid = append(ids, strconv.FormatInt(v.ID, 10)), v.ResourceID
			}
			c := newSignedIn(t, s, u)
			get := func(path string) string {
				t.Helper()
				status, body := c.do("GET", path, "")
				if status != 200 {
					t.Fatalf("GET %s: %d %s", path, status, body)
				}
				return html.UnescapeString(body)
			}
			diff := "/resources/" + strconv.FormatInt(rid, 10) + "/diff"
			query := "?from=" + ids[0] + "&to=" + ids[1]
			names := func(place, text string, urls []string) {
				t.Helper()
				for _, u := range urls {
					if !strings.Contains(text, u) {
						t.Errorf("%s does not name %s:\n%s", place, u, text)
					}
				}
			}
			// Not one of the URLs resolved against the resource's.
			wrong := []string{"http://a.example/img/", "http://a.example/b.html", "http://a.example/c.html"}
			misnames := func(place, text string) {
				t.Helper()
				for _, u := range wrong {
					if strings.Contains(text, u) {
						t.Errorf("%s names %s, resolved against the resource's URL:\n%s", place, u, text)
					}
				}
			}
			records := get("/api/v1" + diff + query + "&format=records")
			dashboard := get(diff + query + "&view=records")
			if tc.wantRecords {
				names("the API's records", records, append(tc.old, tc.new...))
				names("the dashboard's records", dashboard, append(tc.old, tc.new...))
			}
			misnames("the API's records", records)
			misnames("the dashboard's records", dashboard)
			inline := get(diff + "/frame" + query + "&view=inline")
			names("the full view", inline, tc.new)
			misnames("the full view", inline)
			side := get(diff + "/frame" + query + "&view=side")
			names("the side-by-side view", side, append(tc.old, tc.new...))
			misnames("the side-by-side view", side)

			var list struct {
				Items []struct {
					ID  int64  `json:"id"`
					URL string `json:"url"`
				} `json:"items"`
			}
			if err := json.Unmarshal([]byte(get("/api/v1/resources/"+strconv.FormatInt(rid, 10)+"/versions")), &list); err != nil {
				t.Fatal(err)
			}
			got := map[string]string{}
			for _, v := range list.Items {
				got[strconv.FormatInt(v.ID, 10)] = v.URL
			}
			for i, id := range ids {
				if got[id] != tc.finals[i] {
					t.Errorf("the API's version %s: url %q, want %q", id, got[id], tc.finals[i])
				}
			}
		})
	}
}
