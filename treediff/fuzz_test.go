package treediff

import (
	"testing"

	"github.com/vigil-web/vigil/delta"
	"github.com/vigil-web/vigil/markup"
	"github.com/vigil-web/vigil/tree"
)

// FuzzDiffRoundTrip diffs two documents, whatever they are (XML or HTML by
// content, as vigil diff reads them), with both algorithms, with and
// without "id" as a key attribute, and checks the delta both ways:
// Apply(old, Diff(old, new)) is new, and Apply(new, Invert(Diff(old, new)))
// is old, content and XIDs. The seeds cover each kind of change,
// processing instructions, comments, keys, HTML, separators between links
// and children alone of their name included:
//
//	go test -run '^$' -fuzz FuzzDiffRoundTrip ./treediff
func FuzzDiffRoundTrip(f *testing.F) {
	for _, seed := range [][2]string{
		{`<r><a>x</a><b>y</b></r>`, `<r><b>y</b><a>z</a></r>`},
		{`<r><?a x?><b/></r>`, `<r><?c x?><b/></r>`},
		{`<r><!--c--><p k="1">t</p></r>`, `<r><p k="2" n="3">t</p><!--d--></r>`},
		{`<r><s><p>one</p><p>two</p></s><s/></r>`, `<r><s/><s><p>two</p><p>one</p><p>three</p></s></r>`},
		{`<a><b><c>deep</c></b></a>`, `<x><b><c>deep</c></b></x>`},
		{`<r>text<i>in</i>more</r>`, `<r>more<i>in</i>text</r>`},
		{`<r><a/><a/><a/></r>`, `<r><a/><b/><a/></r>`},
		{`<r><i id="1">a</i><i id="2">b</i></r>`, `<r><i id="2">a</i><i id="1">b</i></r>`},
		{`<p>one <b>two</b> three<p>four`, `<ul><li>one<li>three</ul><p>four <b>two</b>`},
		{`<r><n><u><i>h</i></u><a>A</a> | <a>B</a>, <a>C</a> | <a>D</a></n></r>`, `<r><n><u><i>h</i></u><a>X</a> | <a>Y</a> | <a>B</a>, <a>C</a><a>D</a> | </n></r>`},
		{`<html><head><title>Home</title><meta a="b"/></head></html>`, `<html><head><meta a="b"/><title>Start</title><title/></head></html>`},
		// An XML declaration read as HTML, a comment after another one.
		{`<!-- x --><?xml version="1.0"?><!DOCTYPE html><html><body><p>a</p></body></html>`, `<!-- y --><?xml version="1.0"?><!DOCTYPE html><html><body><p>b</p></body></html>`},
		// Repeated children in chains through their twins (markTwinChains).
		{`<l><i>r0</i><i>r0</i><i>r3</i><i>r2</i><i>r1</i><i>r1</i><i>r2</i></l>`, `<l><i>r2</i><i>r0</i><i>r3</i><i>r1</i><i>r2</i><i>r0</i><i>r1</i></l>`},
		{`<l><i>r1</i><i>r1</i><i>r0</i><i>r1</i><i>r0</i><i>r2</i><i>r2</i></l>`, `<l><i>r1</i><i>r2</i><i>r0</i><i>r2</i><i>r1</i><i>r2</i><i>r0</i></l>`},
		// Items moved into and out of wrappers and edited; items of the
		// same attributes and other words.
		{`<body><div><p>The quick brown fox jumps over the lazy dog</p></div><p>b</p></body>`, `<body><p>b</p><section><blockquote><p>The quick brown fox leaps over the lazy dog</p></blockquote></section></body>`},
		{`<body><div><p class="n" lang="en" dir="ltr">Sold out</p></div><p>b</p></body>`, `<body><p>b</p><section><p class="n" lang="en" dir="ltr">Free delivery today</p></section></body>`},
	} {
		f.Add(seed[0], seed[1], false)
		f.Add(seed[0], seed[1], true)
	}
	f.Fuzz(func(t *testing.T, a, b string, keyed bool) {
		opt := &Options{}
		if keyed {
			opt.KeyAttrs = []string{"id"}
		}
		for _, alg := range []Algorithm{Vigil, XyDiff} {
			opt.Algorithm = alg
			old, _, err := markup.ParseBytes([]byte(a), nil)
			if err != nil {
				return
			}
			new, _, err := markup.ParseBytes([]byte(b), nil)
			if err != nil {
				return
			}
			d, err := Diff(old, new, opt)
			if err != nil {
				return // no root element
			}
			got, err := delta.Apply(old, d)
			if err != nil {
				t.Fatalf("%s: apply: %v\ndelta:\n%v", alg, err, d.Ops)
			}
			if diff := tree.Diff(got.Root, new.Root, tree.ContentAndXIDs); diff != "" {
				t.Fatalf("%s: Apply(old, Diff(old, new)) != new: %s\ndelta:\n%v", alg, diff, d.Ops)
			}
			back, err := delta.Apply(new, delta.Invert(d))
			if err != nil {
				t.Fatalf("%s: apply the inverse: %v", alg, err)
			}
			if diff := tree.Diff(back.Root, old.Root, tree.ContentAndXIDs); diff != "" {
				t.Fatalf("%s: Apply(new, Invert(Diff(old, new))) != old: %s", alg, diff)
			}
		}
	})
}

// FuzzComposeRoundTrip diffs three versions in turn and checks that the
// composition of the two deltas takes the first version to the third:
// Apply(a, Compose(Diff(a, b), Diff(b, c))) is c (with ComposeWith, given
// a, where Compose refuses to guess), content and XIDs.
//
//	go test -run '^$' -fuzz FuzzComposeRoundTrip ./treediff
func FuzzComposeRoundTrip(f *testing.F) {
	for _, seed := range [][3]string{
		{`<r><a>x</a><b>y</b></r>`, `<r><b>y</b><a>z</a></r>`, `<r><a>z</a></r>`},
		{`<r><?a x?><b/></r>`, `<r><?c x?><b/></r>`, `<r><b/><?c y?></r>`},
		{`<r><s><p>one</p><p>two</p></s><s/></r>`, `<r><s/><s><p>two</p><p>one</p></s></r>`, `<r><s><p>one</p></s><s><p>two</p></s></r>`},
		{`<r><p k="1">t</p></r>`, `<r><p k="2">t</p><q/></r>`, `<r><q><p k="2">u</p></q></r>`},
	} {
		f.Add(seed[0], seed[1], seed[2])
	}
	f.Fuzz(func(t *testing.T, a, b, c string) {
		var docs [3]*tree.Document
		for k, s := range []string{a, b, c} {
			d, _, err := markup.ParseBytes([]byte(s), nil)
			if err != nil {
				return
			}
			docs[k] = d
		}
		dab, err := Diff(docs[0], docs[1], nil)
		if err != nil {
			return
		}
		base := docs[0] // with its XIDs now; the diffs change nothing else
		dbc, err := Diff(docs[1], docs[2], nil)
		if err != nil {
			return
		}
		dac, err := delta.Compose(dab, dbc)
		if err != nil {
			if dac, err = delta.ComposeWith(base, dab, dbc); err != nil {
				t.Fatalf("compose with the base: %v", err)
			}
		}
		got, err := delta.Apply(base, dac)
		if err != nil {
			t.Fatalf("apply the composition: %v\nab:\n%v\nbc:\n%v\nac:\n%v", err, dab.Ops, dbc.Ops, dac.Ops)
		}
		if diff := tree.Diff(got.Root, docs[2].Root, tree.ContentAndXIDs); diff != "" {
			t.Fatalf("Apply(a, Compose(Diff(a, b), Diff(b, c))) != c: %s\nab:\n%v\nbc:\n%v\nac:\n%v", diff, dab.Ops, dbc.Ops, dac.Ops)
		}
	})
}
