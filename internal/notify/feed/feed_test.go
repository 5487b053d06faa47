package feed

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

type fakeStore struct{ changes []*vigil.Change }

func (f *fakeStore) FindSentinelByID(_ context.Context, id int64) (*vigil.Sentinel, error) {
	if id != 1 {
		return nil, vigil.Errorf(vigil.ENOTFOUND, "no sentinel")
	}
	return &vigil.Sentinel{ID: 1, Name: "s1", CreatedAt: time.Unix(1e9, 0)}, nil
}

func (f *fakeStore) FindChanges(_ context.Context, flt vigil.ChangeFilter) ([]*vigil.Change, int, error) {
	return f.changes, len(f.changes), nil
}

func TestFeeds(t *testing.T) {
	secret := []byte("k")
	s := &Server{Store: &fakeStore{changes: []*vigil.Change{{ID: 9, SentinelID: 1, Summary: "keyword 5331 appeared", DetectedAt: time.Unix(2e9, 0),
		Records: []byte(`[{"op":"insert","text":"<b>5331</b>"}]`)}}}, Secret: secret, BaseURL: "https://vigil.example"}
	mux := http.NewServeMux()
	s.Register(mux)
	srv := httptest.NewServer(mux)
	defer srv.Close()
	get := func(path string) (int, string) {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	for _, format := range []string{"atom", "rss"} {
		code, body := get(Path(secret, 1, format))
		if code != 200 || !strings.Contains(body, "keyword 5331 appeared") {
			t.Errorf("%s: %d %s", format, code, body)
		}
		// Links are absolute; an entry links to its change; the records
		// are escaped HTML, not raw JSON.
		for _, want := range []string{"https://vigil.example/feeds/1/", "https://vigil.example/changes/9", "lt;b&"} {
			if !strings.Contains(body, want) {
				t.Errorf("%s: no %q in\n%s", format, want, body)
			}
		}
		if strings.Contains(body, "<b>5331") {
			t.Errorf("%s: a record's text unescaped in\n%s", format, body)
		}
	}
	if code, _ := get("/feeds/1/wrongtoken/atom.xml"); code != 404 {
		t.Errorf("wrong token: %d", code)
	}
	if code, _ := get(Path(secret, 2, "atom")); code != 404 {
		t.Errorf("unknown sentinel: %d", code)
	}
}
