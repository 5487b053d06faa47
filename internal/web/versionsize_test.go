package web

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/warehouse"
)

// TestVersionSizeAndHash: a version in the API gives the size and
// contentHash of what it read. A version with a body gives the body's;
// the version of a binary document, whose body is not kept, gives the
// document's size (its file's) and no contentHash, its file's digest
// identifying it; a failed fetch, which read no body, gives neither.
// Before, both gave size 0 and the hash of an empty body, which a client
// took for the content's. Each gives the duration of its fetch.
func TestVersionSizeAndHash(t *testing.T) {
	s, u := newTestServer(t)
	w := useWarehouse(t, s)
	ctx := context.Background()
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	const url = "http://files.example/report"
	digest := "sha256:" + strings.Repeat("ab", 32)
	page := []byte("<p>soon</p>")
	type want struct {
		size     string // as JSON, "" for absent
		hash     string
		duration string
	}
	cases := map[string]struct {
		fetch *warehouse.Fetch
		want  want
	}{
		"body": {&warehouse.Fetch{Status: 200, ContentType: "text/html", Body: page, FetchDuration: 3 * time.Millisecond},
			want{"11", `"` + warehouse.Hash(page) + `"`, "3000000"}},
		"binary document": {&warehouse.Fetch{Status: 200, ContentType: "application/pdf", FetchDuration: 5 * time.Millisecond,
			Error: vigil.BinaryVersionError("binary content: application/pdf is not a text document", 12345, digest)},
			want{"12345", "", "5000000"}},
		"binary document, size not said": {&warehouse.Fetch{Status: 200, ContentType: "image/png", FetchDuration: time.Millisecond,
			Error: "binary content: image/png is not a text document"},
			want{"", "", "1000000"}},
		"failed fetch": {&warehouse.Fetch{Status: 503, Error: "fetch " + url + ": HTTP error status 503", FetchDuration: 2 * time.Millisecond},
			want{"", "", "2000000"}},
	}
	ids := map[string]int64{}
	i := 0
	for _, name := range []string{"body", "binary document", "binary document, size not said", "failed fetch"} {
		f := cases[name].fetch
		f.URL, f.FetchedAt = url, at.Add(time.Duration(i)*time.Hour)
		i++
		v, err := w.Put(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		ids[name] = v.ID
	}
	createChecked(t, s, u, "Create Sentinel report Using "+url+" Fetch 1 hour")
	c := newSignedIn(t, s, u)
	for name, tc := range cases {
		path := "/api/v1/versions/" + strconv.FormatInt(ids[name], 10)
		status, body := c.do("GET", path, "")
		var v map[string]json.RawMessage
		if err := json.Unmarshal([]byte(body), &v); status != 200 || err != nil {
			t.Fatalf("GET %s: %d %v %s", path, status, err, body)
		}
		got := want{string(v["size"]), string(v["contentHash"]), string(v["fetchDuration"])}
		if got != tc.want {
			t.Errorf("%s: size %q, contentHash %q, fetchDuration %q; want %q, %q, %q", name, got.size, got.hash, got.duration,
				tc.want.size, tc.want.hash, tc.want.duration)
		}
	}
}
