package warehouse_test

import (
	"context"
	"testing"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/warehouse"
	"github.com/vigil-web/vigil/markup"
)

func TestExtractLinks(t *testing.T) {
	page := `<!DOCTYPE html><html><head><title>t</title></head><body>
<p>See <a href="#staff">our   staff</a>, <a href="/about">About <b>us</b></a>,
<a href="http://www.rxlist.com/cgi/generic/index.html">all RxList monographs</a>,
<a href="mailto:x@example.com">mail</a>, <a name="anchor-only">no href</a>,
<map><area href="https://example.com:443/map" alt="m"></map>
<a HREF="page2.html">next</a></p></body></html>`
	doc, _, err := markup.ParseBytes([]byte(page), nil)
	if err != nil {
		t.Fatal(err)
	}
	got := warehouse.ExtractLinks(doc, "https://Example.com/dir/index.html")
	want := []vigil.Link{
		{Target: "https://example.com/dir/index.html#staff", Anchor: "our staff", Type: vigil.LinkInterior},
		{Target: "https://example.com/about", Anchor: "About us", Type: vigil.LinkLocal},
		{Target: "http://www.rxlist.com/cgi/generic/index.html", Anchor: "all RxList monographs", Type: vigil.LinkGlobal},
		{Target: "https://example.com/map", Anchor: "", Type: vigil.LinkLocal},
		{Target: "https://example.com/dir/page2.html", Anchor: "next", Type: vigil.LinkLocal},
	}
	if len(got) != len(want) {
		for _, l := range got {
			t.Logf("%+v", l)
		}
		t.Fatalf("%d links, want %d", len(got), len(want))
	}
	for i, w := range want {
		w.Source = "https://example.com/dir/index.html"
		if *got[i] != w {
			t.Errorf("link %d: %+v, want %+v", i, *got[i], w)
		}
	}
	// <base href> moves relative links.
	doc, _, _ = markup.ParseBytes([]byte(`<html><head><base href="http://cdn.example/x/"></head><body><a href="y">y</a></body></html>`), nil)
	got = warehouse.ExtractLinks(doc, "http://example.com/")
	if len(got) != 1 || got[0].Target != "http://cdn.example/x/y" || got[0].Type != vigil.LinkGlobal {
		t.Fatalf("base: %+v", got)
	}
}

func TestPutExtractsLinks(t *testing.T) {
	ctx := context.Background()
	w, db := newWarehouse(t, warehouse.Options{ExtractLinks: true})
	v := put(t, w, "http://example.com/", 0, []byte(`<html><body><a href="/a">A</a><a href="http://b.example/">B</a></body></html>`))
	links, err := db.Links(ctx, v.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(links) != 2 || links[0].Target != "http://example.com/a" || links[1].Type != vigil.LinkGlobal || links[0].Source != "http://example.com/" {
		t.Fatalf("links %+v", links)
	}
}
