package markup_test

import (
	"math"
	"testing"

	"github.com/vigil-web/vigil/markup"
)

func TestParseRefresh(t *testing.T) {
	tests := map[string]struct {
		content string
		delay   int
		ref     string
		ok      bool
	}{
		"url":                 {content: "0; url=http://a.example/x", delay: 0, ref: "http://a.example/x", ok: true},
		"upper case, quoted":  {content: "0;URL='/x'", delay: 0, ref: "/x", ok: true},
		"double quotes":       {content: `0; Url="/x y"`, delay: 0, ref: "/x y", ok: true},
		"quote ends it":       {content: `0; url='/x'trailing`, delay: 0, ref: "/x", ok: true},
		"unclosed quote":      {content: `0; url='/x`, delay: 0, ref: "/x", ok: true},
		"delay":               {content: "5; url=x", delay: 5, ref: "x", ok: true},
		"spaces":              {content: "  3 ;  url =  /x  ", delay: 3, ref: "/x", ok: true},
		"comma":               {content: "2,url=/x", delay: 2, ref: "/x", ok: true},
		"space only":          {content: "1 /x", delay: 1, ref: "/x", ok: true},
		"no url keyword":      {content: "0;/x", delay: 0, ref: "/x", ok: true},
		"quoted, no keyword":  {content: "0; '/x'", delay: 0, ref: "/x", ok: true},
		"fraction":            {content: "1.5; url=/x", delay: 1, ref: "/x", ok: true},
		"fraction alone":      {content: ".5;url=/x", delay: 0, ref: "/x", ok: true},
		"url not a keyword":   {content: "0; urlx", delay: 0, ref: "urlx", ok: true},
		"url without equals":  {content: "0; url /x", delay: 0, ref: "url /x", ok: true},
		"line break in url":   {content: "0; url=/a\n/b", delay: 0, ref: "/a/b", ok: true},
		"reload":              {content: "30", delay: 30, ref: "", ok: true},
		"reload, empty url":   {content: "0; url=", delay: 0, ref: "", ok: true},
		"huge delay":          {content: "99999999999999999999; url=/x", delay: math.MaxInt32, ref: "/x", ok: true},
		"empty":               {content: "", ok: false},
		"no delay":            {content: "url=/x", ok: false},
		"no delay, semicolon": {content: "; url=/x", ok: false},
		"delay then a letter": {content: "5x; url=/x", ok: false},
		"negative":            {content: "-1; url=/x", ok: false},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			delay, ref, ok := markup.ParseRefresh(tt.content)
			if ok != tt.ok || ok && (delay != tt.delay || ref != tt.ref) {
				t.Errorf("ParseRefresh(%q) = %d, %q, %v; want %d, %q, %v", tt.content, delay, ref, ok, tt.delay, tt.ref, tt.ok)
			}
		})
	}
}

func TestFindRefresh(t *testing.T) {
	tests := map[string]struct {
		doc  string
		want markup.Refresh
		ok   bool
	}{
		"head":              {doc: `<html><head><meta http-equiv="refresh" content="0; url=/new"></head><body>moved</body></html>`, want: markup.Refresh{URL: "/new"}, ok: true},
		"case and spaces":   {doc: `<META HTTP-EQUIV=" Refresh " CONTENT="2;URL='/new'">`, want: markup.Refresh{Delay: 2, URL: "/new"}, ok: true},
		"in body":           {doc: `<p>moved<meta http-equiv=refresh content="0;url=/b"></p>`, want: markup.Refresh{URL: "/b"}, ok: true},
		"base before":       {doc: `<base href="/dir/"><meta http-equiv="refresh" content="0; url=x">`, want: markup.Refresh{URL: "x", Base: "/dir/"}, ok: true},
		"base after":        {doc: `<meta http-equiv="refresh" content="0; url=x"><base href="/dir/">`, want: markup.Refresh{URL: "x"}, ok: true},
		"first that parses": {doc: `<meta http-equiv="refresh" content="soon"><meta http-equiv="refresh" content="1;url=/b">`, want: markup.Refresh{Delay: 1, URL: "/b"}, ok: true},
		"self-closing":      {doc: `<meta http-equiv="refresh" content="0;url=/b"/>`, want: markup.Refresh{URL: "/b"}, ok: true},
		"noscript":          {doc: `<noscript><meta http-equiv="refresh" content="0; url=/nojs"></noscript>`},
		"script":            {doc: `<script>document.write('<meta http-equiv="refresh" content="0; url=/x">')</script>`},
		"comment":           {doc: `<!-- <meta http-equiv="refresh" content="0; url=/x"> -->`},
		"template":          {doc: `<template><meta http-equiv="refresh" content="0; url=/x"></template><p>page</p>`},
		"nested templates":  {doc: `<template><template></template><meta http-equiv="refresh" content="0; url=/x"></template>`},
		"after a template":  {doc: `<template><p>row</p></template><meta http-equiv="refresh" content="0; url=/b">`, want: markup.Refresh{URL: "/b"}, ok: true},
		"base in template":  {doc: `<template><base href="/t/"></template><meta http-equiv="refresh" content="0; url=x">`, want: markup.Refresh{URL: "x"}, ok: true},
		"svg breaks out":    {doc: `<svg><meta http-equiv="refresh" content="0; url=/b"></svg>`, want: markup.Refresh{URL: "/b"}, ok: true},
		// A base in svg or math is an SVG or MathML element, no HTML
		// base; in an HTML integration point, or once a tag breaks out of
		// foreign content, it is HTML again.
		"base in svg":                   {doc: `<svg><base href="/s/"></base></svg><meta http-equiv="refresh" content="0; url=x">`, want: markup.Refresh{URL: "x"}, ok: true},
		"base in math":                  {doc: `<math><mrow><base href="/m/"/></mrow></math><meta http-equiv="refresh" content="0; url=x">`, want: markup.Refresh{URL: "x"}, ok: true},
		"base after svg":                {doc: `<svg><circle r="1"/></svg><base href="/b/"><meta http-equiv="refresh" content="0; url=x">`, want: markup.Refresh{URL: "x", Base: "/b/"}, ok: true},
		"base in foreignObject":         {doc: `<svg><foreignObject><base href="/fo/"></foreignObject></svg><meta http-equiv="refresh" content="0; url=x">`, want: markup.Refresh{URL: "x", Base: "/fo/"}, ok: true},
		"base in mi":                    {doc: `<math><mi><base href="/mi/"></mi></math><meta http-equiv="refresh" content="0; url=x">`, want: markup.Refresh{URL: "x", Base: "/mi/"}, ok: true},
		"base after a breakout":         {doc: `<svg><p><base href="/p/"><meta http-equiv="refresh" content="0; url=x">`, want: markup.Refresh{URL: "x", Base: "/p/"}, ok: true},
		"base in svg in foreign":        {doc: `<svg><foreignObject><svg><base href="/in/"/></svg></foreignObject></svg><meta http-equiv="refresh" content="0; url=x">`, want: markup.Refresh{URL: "x"}, ok: true},
		"svg's template is no template": {doc: `<svg><template></svg><meta http-equiv="refresh" content="0; url=/b">`, want: markup.Refresh{URL: "/b"}, ok: true},
		"other equiv":                   {doc: `<meta http-equiv="content-type" content="0; url=/x">`},
		"name, not equiv":               {doc: `<meta name="refresh" content="0; url=/x">`},
		"no content":                    {doc: `<meta http-equiv="refresh">`},
		"none":                          {doc: `<title>a</title><p>text`},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			got, ok := markup.FindRefresh([]byte(tt.doc))
			if ok != tt.ok || got != tt.want {
				t.Errorf("FindRefresh(%q) = %+v, %v; want %+v, %v", tt.doc, got, ok, tt.want, tt.ok)
			}
		})
	}
}
