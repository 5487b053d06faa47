package tree

import "testing"

// TestXMLDeclaration tells the declaration an XML parser reads, and the
// comment an HTML parser makes of one, from other nodes of a prolog.
func TestXMLDeclaration(t *testing.T) {
	for _, tc := range []struct {
		name            string
		n               *Node
		decl, asComment bool
	}{
		{"processing instruction xml", &Node{Kind: ProcInst, Name: "xml", Value: `version="1.0"`}, true, false},
		{"processing instruction XML", &Node{Kind: ProcInst, Name: "XML", Value: `version="1.0"`}, true, false},
		{"other processing instruction", &Node{Kind: ProcInst, Name: "xml-stylesheet", Value: `href="a.css"`}, false, false},
		{"comment of an HTML parser", &Node{Kind: Comment, Value: `?xml version="1.0"?`}, false, true},
		{"comment of an HTML parser, upper case", &Node{Kind: Comment, Value: "?XML\tversion=\"1.0\"?"}, false, true},
		{"comment of xml-stylesheet", &Node{Kind: Comment, Value: `?xml-stylesheet href="a.css"?`}, false, false},
		{"comment cut at a >", &Node{Kind: Comment, Value: `?xml version="1.0" a="`}, false, false},
		{"comment ?xml alone", &Node{Kind: Comment, Value: `?xml?`}, false, false},
		{"text", &Node{Kind: Text, Value: `?xml version="1.0"?`}, false, false},
		{"nil", nil, false, false},
	} {
		if got := IsXMLDeclaration(tc.n); got != tc.decl {
			t.Errorf("%s: IsXMLDeclaration %v, want %v", tc.name, got, tc.decl)
		}
		if got := IsXMLDeclarationComment(tc.n); got != tc.asComment {
			t.Errorf("%s: IsXMLDeclarationComment %v, want %v", tc.name, got, tc.asComment)
		}
	}
}

// TestHTMLKept: whether an HTML parser read a document (Document.HTML)
// survives Clone and a round trip through Flat.
func TestHTMLKept(t *testing.T) {
	for _, html := range []bool{false, true} {
		d := &Document{HTML: html}
		d.Root = d.NewElement("r")
		d.Prolog = []*Node{d.NewNode(Comment, "", `?xml version="1.0"?`)}
		if got := d.Clone().HTML; got != html {
			t.Errorf("Clone: HTML %v, want %v", got, html)
		}
		f, _ := FlattenDocument(d)
		if f.HTML != html {
			t.Errorf("FlattenDocument: HTML %v, want %v", f.HTML, html)
		}
		if got := f.Document().HTML; got != html {
			t.Errorf("Flat.Document: HTML %v, want %v", got, html)
		}
	}
}
