package warehouse_test

import (
	"context"
	"testing"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/postgres/pgtest"
	"github.com/vigil-web/vigil/internal/sqlite"
	"github.com/vigil-web/vigil/internal/warehouse"
	"github.com/vigil-web/vigil/internal/zstd"
)

// TestPutDropsFieldsNotText: an ETag or a charset that is no text (not
// UTF-8, or with a NUL) is stored as none, on both backends: PostgreSQL
// refuses it in a text column, which failed the version's store at every
// check (and a whole WARC import), and SQLite would keep what PostgreSQL
// cannot. Text is kept as given.
func TestPutDropsFieldsNotText(t *testing.T) {
	cases := map[string]struct {
		etag, charset         string // what the fetch gives
		wantETag, wantCharset string // what the version keeps
	}{
		"etag latin-1":    {etag: "\"caf\xe9\"", charset: "utf-8", wantCharset: "utf-8"},
		"etag nul":        {etag: "\"a\x00b\"", charset: "utf-8", wantCharset: "utf-8"},
		"charset latin-1": {etag: `"1"`, charset: "caf\xe9", wantETag: `"1"`},
		"charset nul":     {etag: `"1"`, charset: "utf-8\x00", wantETag: `"1"`},
		"both not text":   {etag: "\xff", charset: "\x00"},
		"both text":       {etag: `W/"x"`, charset: "utf-8", wantETag: `W/"x"`, wantCharset: "utf-8"},
		"none":            {},
	}
	for backend, open := range textStores() {
		t.Run(backend, func(t *testing.T) {
			ctx := context.Background()
			codec, err := zstd.New(0)
			if err != nil {
				t.Fatal(err)
			}
			w, err := warehouse.New(open(t), warehouse.Options{Codec: codec})
			if err != nil {
				t.Fatal(err)
			}
			for name, c := range cases {
				v, err := w.Put(ctx, &warehouse.Fetch{URL: "http://example.com/" + name, FetchedAt: t0, Status: 200,
					ETag: c.etag, ContentType: "text/html", Charset: c.charset, Body: []byte("<p>" + name + "</p>")})
				if err != nil {
					t.Errorf("%s: %v", name, err)
					continue
				}
				stored, err := w.Store().FindVersionByID(ctx, v.ID)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				for _, got := range []*vigil.Version{v, stored} {
					if got.ETag != c.wantETag || got.Charset != c.wantCharset {
						t.Errorf("%s: ETag %q, charset %q; want %q, %q", name, got.ETag, got.Charset, c.wantETag, c.wantCharset)
					}
				}
			}
		})
	}
}

// textStores opens a fresh store of each backend: SQLite, and PostgreSQL
// when VIGIL_TEST_POSTGRES_DSN is set.
func textStores() map[string]func(t *testing.T) warehouse.Store {
	return map[string]func(t *testing.T) warehouse.Store{
		"sqlite": func(t *testing.T) warehouse.Store {
			st, err := sqlite.Open(context.Background(), t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { st.Close() })
			return st
		},
		"postgres": func(t *testing.T) warehouse.Store { return pgtest.Open(t) },
	}
}
