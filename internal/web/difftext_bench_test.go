package web

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
)

// BenchmarkDiffText measures the text format of the API's diff
// (GET /api/v1/resources/{id}/diff?format=text) of a generated page of
// 1 MB and 10 MB whose every tenth paragraph changed (bigPagePair), the
// versions stored in a SQLite warehouse without tree deltas, as the
// monitor stores a page it has no delta for: the view reads both
// bodies, parses them, runs the tree differ and writes the changes.
// parsed-MB/op is the bytes of bodies the view parsed.
//
//	go test ./internal/web -run '^$' -bench DiffText -benchtime 3x
func BenchmarkDiffText(b *testing.B) {
	for _, size := range []int{1 << 20, 10 << 20} {
		b.Run(fmt.Sprintf("%dMB", size>>20), func(b *testing.B) {
			old, new, _ := bigPagePair(b, size)
			s, u := newTestServer(b)
			w := useWarehouse(b, s)
			createChecked(b, s, u, "Create Sentinel big Using http://a.example/big Fetch 1 hour")
			resource, from, to := putBigPages(b, s, w, old, new)
			mux := http.NewServeMux()
			s.Register(mux)
			cookie, err := s.newSessionCookie(u)
			if err != nil {
				b.Fatal(err)
			}
			path := fmt.Sprintf("/api/v1/resources/%d/diff?from=%d&to=%d&format=text", resource, from, to)
			b.SetBytes(int64(len(new)))
			before := w.ParsedBytes()
			for b.Loop() {
				r := httptest.NewRequest("GET", path, nil)
				r.AddCookie(&http.Cookie{Name: sessionCookie, Value: cookie})
				rec := httptest.NewRecorder()
				mux.ServeHTTP(rec, r)
				if rec.Code != 200 {
					b.Fatalf("%d %.500s", rec.Code, rec.Body.String())
				}
			}
			b.ReportMetric(float64(w.ParsedBytes()-before)/float64(b.N)/(1<<20), "parsed-MB/op")
		})
	}
}
