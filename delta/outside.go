package delta

import (
	"fmt"
	"slices"
	"strings"

	"github.com/vigil-web/vigil/tree"
	"github.com/vigil-web/vigil/xmltext"
)

// Outside is a change to what stands outside the root element, which the
// seed's deltas leave out: the DOCTYPE, and the comments and processing
// instructions before the root (the prolog) and after it (the epilog). It
// gives all three as they were and as they become; the XML declaration is
// not part of it (a writer rewrites it). A Vigil extension: a licence
// comment above the root, or a page's generated header comment, changes
// with the document, and a delta that did not say so would leave a patched
// document different from the version it claims to be.
type Outside struct {
	Old, New Surroundings
	// at is where the change starts in the file it was decoded from (its
	// <outside>, its "outside" key), for the errors of Apply; zero for a
	// change made in memory. Invert's keeps it.
	at place
}

// Surroundings is what stands outside the root element of one version.
type Surroundings struct {
	Doctype        string
	Prolog, Epilog []*tree.Node // comments and processing instructions, without XIDs
	// DoctypeAfter is how many of Prolog's nodes come before the DOCTYPE
	// (tree.Document.DoctypeAfter without the XML declaration): 0 when
	// there is no DOCTYPE, and at most len(Prolog).
	DoctypeAfter int
}

// surroundingsOf returns what stands outside the root of a document with
// the given DOCTYPE, DoctypeAfter, prolog and epilog, leaving out of the
// prolog the XML declarations of a document read as HTML or not
// (declarationOf).
func surroundingsOf(doctype string, doctypeAfter int, prolog, epilog []*tree.Node, html bool) Surroundings {
	isDecl := declarationOf(html)
	// Where the DOCTYPE stands, counted as tree.Document.DoctypeAfter
	// counts it: past a declaration that leads the prolog.
	after := 0
	if doctype != "" {
		_, before, _ := tree.SplitProlog(prolog, doctypeAfter)
		for _, n := range before {
			if !isDecl(n) {
				after++
			}
		}
	}
	if slices.ContainsFunc(prolog, isDecl) {
		prolog = slices.DeleteFunc(slices.Clone(prolog), isDecl)
	}
	return Surroundings{Doctype: doctype, Prolog: prolog, Epilog: epilog, DoctypeAfter: after}
}

// surroundingsOfDocument is surroundingsOf doc's.
func surroundingsOfDocument(doc *tree.Document) Surroundings {
	return surroundingsOf(doc.Doctype, doc.DoctypeAfter, doc.Prolog, doc.Epilog, doc.HTML)
}

// comparedAsHTML reports whether a delta between two versions, one read
// as HTML or not (old, new: tree.Document.HTML), leaves the comments
// <!--?xml ...?--> before their roots out as declarations: when either
// was. A version read as HTML and the next read as XML that holds the
// comment as written (the first as a browser, or WriteXML, serialises
// it) are then no change there, as XHTML read either way is; had the
// second's comment been carried, Apply would refuse the delta for the
// first (applyOutside), the version it was computed from. The version
// read as XML takes such a delta as one written before deltas carried
// those comments (applyOutside), keeping its own.
func comparedAsHTML(old, new bool) bool { return old || new }

// declarationOf returns the test of an XML declaration as the parser of a
// document leaves one in its prolog: the processing instruction of an XML
// parser (tree.IsXMLDeclaration), and in a document an HTML parser read
// (html, tree.Document.HTML) also the comment it makes of one, wherever it
// stands (tree.IsXMLDeclarationComment). A delta leaves them out of what
// stands before the root, so that XHTML read as XML in one version and as
// HTML in the next is no change there, and Apply keeps the document's own
// where they stand. In a document read as XML, <!--?xml version="1.0"?-->
// is a comment its author wrote, which a delta carries as any other: one
// that came, went or changed is a change. Package xmlpatch, whose
// selectors address the document as parsed, counts only the first: there
// the comment is a comment() node like any other.
func declarationOf(html bool) func(*tree.Node) bool {
	if html {
		return isDeclarationOrComment
	}
	return tree.IsXMLDeclaration
}

// isDeclarationOrComment is declarationOf(true): an XML declaration in
// either form a parser leaves one.
func isDeclarationOrComment(n *tree.Node) bool {
	return tree.IsXMLDeclaration(n) || tree.IsXMLDeclarationComment(n)
}

// OutsideChanged reports whether what stands outside the root element
// differs between two versions, as a delta between them would say with
// its Outside.
func OutsideChanged(old, new *tree.Document) bool {
	html := comparedAsHTML(old.HTML, new.HTML)
	return !surroundingsOf(old.Doctype, old.DoctypeAfter, old.Prolog, old.Epilog, html).equal(surroundingsOf(new.Doctype, new.DoctypeAfter, new.Prolog, new.Epilog, html))
}

// outsideChange returns the change between two versions' surroundings, or
// nil when they are the same.
func outsideChange(old, new Surroundings) *Outside {
	if old.equal(new) {
		return nil
	}
	return &Outside{Old: old.clone(), New: new.clone()}
}

// equal reports whether s and o hold the same DOCTYPE, white space aside
// (the HTML parser writes it with single spaces, the XML parser as it
// stands), in the same place, and the same nodes.
func (s Surroundings) equal(o Surroundings) bool {
	return sameDoctype(s.Doctype, o.Doctype) && s.DoctypeAfter == o.DoctypeAfter && tree.SameLeaves(s.Prolog, o.Prolog) && tree.SameLeaves(s.Epilog, o.Epilog)
}

func sameDoctype(a, b string) bool {
	return a == b || strings.Join(strings.Fields(a), " ") == strings.Join(strings.Fields(b), " ")
}

// clone copies the nodes, without XIDs, so that the delta does not share
// them with a document.
func (s Surroundings) clone() Surroundings {
	c := Surroundings{Doctype: s.Doctype, DoctypeAfter: s.DoctypeAfter}
	for _, list := range []struct {
		from []*tree.Node
		to   *[]*tree.Node
	}{{s.Prolog, &c.Prolog}, {s.Epilog, &c.Epilog}} {
		for _, n := range list.from {
			*list.to = append(*list.to, &tree.Node{Kind: n.Kind, Name: n.Name, Value: n.Value})
		}
	}
	return c
}

// describe names the parts of s that differ from o, for an error.
func (s Surroundings) describe(o Surroundings) string {
	var parts []string
	if !sameDoctype(s.Doctype, o.Doctype) {
		parts = append(parts, fmt.Sprintf("DOCTYPE %q, not %q", s.Doctype, o.Doctype))
	}
	if s.DoctypeAfter != o.DoctypeAfter {
		parts = append(parts, fmt.Sprintf("the DOCTYPE after %d comments and processing instructions, not %d", s.DoctypeAfter, o.DoctypeAfter))
	}
	for _, list := range []struct {
		where string
		a, b  []*tree.Node
	}{{"before", s.Prolog, o.Prolog}, {"after", s.Epilog, o.Epilog}} {
		if tree.SameLeaves(list.a, list.b) {
			continue
		}
		if len(list.a) != len(list.b) {
			parts = append(parts, fmt.Sprintf("%d comments and processing instructions %s the root, not %d", len(list.a), list.where, len(list.b)))
			continue
		}
		for k := range list.a {
			if x, y := list.a[k], list.b[k]; !tree.SameLeaf(x, y) {
				xv, yv := clipPair(x.Value, y.Value)
				parts = append(parts, fmt.Sprintf("%s %q as node %d %s the root, not %s %q", x.Kind, xv, k+1, list.where, y.Kind, yv))
				break
			}
		}
	}
	return strings.Join(parts, "; ")
}

// validate checks both sides of o.
func (o *Outside) validate() error {
	if err := o.Old.validate("old"); err != nil {
		return err
	}
	return o.New.validate("new")
}

// validate checks that the surroundings hold only comments and processing
// instructions (not the XML declaration, the processing instruction, which
// the comparisons leave out, so that Apply would write one and the
// inverse's Apply not find it; the comment an HTML parser makes of one is
// a comment here, which a document read as XML holds as its author wrote
// it, and which Apply refuses to bring to or take from a document read as
// HTML, see applyOutside), without children or attributes,
// each processing instruction with a target and no comment with a name,
// as in a delta's content, and a DoctypeAfter within the prolog (0 without
// a DOCTYPE), and a DOCTYPE that ends where its text does
// (xmltext.CheckDoctype: written, it would otherwise leave markup of the
// delta's in the document).
func (s Surroundings) validate(which string) error {
	switch {
	case s.DoctypeAfter < 0 || s.DoctypeAfter > len(s.Prolog):
		return fmt.Errorf("%w: outside the root, %s DOCTYPE is after %d prolog nodes, of %d", ErrMalformed, which, s.DoctypeAfter, len(s.Prolog))
	case s.DoctypeAfter > 0 && s.Doctype == "":
		return fmt.Errorf("%w: outside the root, %s DOCTYPE is after %d prolog nodes, but there is none", ErrMalformed, which, s.DoctypeAfter)
	}
	if s.Doctype != "" {
		if err := xmltext.CheckDoctype(s.Doctype); err != nil {
			return fmt.Errorf("%w: outside the root, %s %v", ErrMalformed, which, err)
		}
	}
	for _, list := range []struct {
		name  string
		nodes []*tree.Node
	}{{"prolog", s.Prolog}, {"epilog", s.Epilog}} {
		for k, n := range list.nodes {
			switch {
			case n == nil:
				return fmt.Errorf("%w: outside the root, %s %s node %d is missing", ErrMalformed, which, list.name, k+1)
			case n.Kind != tree.Comment && n.Kind != tree.ProcInst:
				return fmt.Errorf("%w: outside the root, %s %s node %d is of kind %s, not a comment or processing instruction", ErrMalformed, which, list.name, k+1, n.Kind)
			case tree.IsXMLDeclaration(n):
				return fmt.Errorf("%w: outside the root, %s %s node %d is an XML declaration", ErrMalformed, which, list.name, k+1)
			case len(n.Children) > 0 || len(n.Attrs) > 0:
				return fmt.Errorf("%w: outside the root, %s %s node %d has children or attributes", ErrMalformed, which, list.name, k+1)
			case n.Kind == tree.ProcInst && n.Name == "":
				return fmt.Errorf("%w: outside the root, %s %s node %d is a processing instruction without a target", ErrMalformed, which, list.name, k+1)
			case n.Kind == tree.Comment && n.Name != "":
				return fmt.Errorf("%w: outside the root, %s %s node %d is a comment with a name", ErrMalformed, which, list.name, k+1)
			}
		}
	}
	return nil
}

// applyOutside checks that doc's surroundings are o.Old and sets them to
// o.New, keeping doc's XML declarations where they stand (see
// withDeclarations). It changes nothing when they are not.
//
// In a document read as HTML (tree.Document.HTML) a comment
// <!--?xml ...?--> before the root is a declaration, which the comparison
// leaves out: a delta whose prolog holds one, made from versions read as
// XML, would write it there and its inverse not find it, so Apply refuses
// it (ErrConflict). A delta written before deltas carried that comment
// when read as XML (one whose prolog holds none) applies to a document
// read as XML as it did then, when it fits it only with the document's
// such comments left out: Apply keeps them where they stand.
func applyOutside(doc *tree.Document, o *Outside) error {
	if o == nil {
		return nil
	}
	where := ""
	if o.at.line > 0 {
		where = fmt.Sprintf("line %d, column %d: ", o.at.line, o.at.col)
	}
	if doc.HTML {
		for _, s := range []struct {
			which string
			nodes []*tree.Node
		}{{"old", o.Old.Prolog}, {"new", o.New.Prolog}} {
			if k := slices.IndexFunc(s.nodes, tree.IsXMLDeclarationComment); k >= 0 {
				return fmt.Errorf("%s%w: outside the root element, the delta's %s prolog node %d is the comment %q, which in a document read as HTML is an XML declaration, which a delta leaves out (Apply keeps the document's own)", where, ErrConflict, s.which, k+1, clip(s.nodes[k].Value))
			}
		}
	}
	isDecl := declarationOf(doc.HTML)
	have := surroundingsOfDocument(doc)
	if !have.equal(o.Old) {
		legacy := surroundingsOf(doc.Doctype, doc.DoctypeAfter, doc.Prolog, doc.Epilog, true)
		if doc.HTML || !legacy.equal(o.Old) || slices.ContainsFunc(o.New.Prolog, tree.IsXMLDeclarationComment) {
			return fmt.Errorf("%s%w: outside the root element, the document has %s", where, ErrConflict, have.describe(o.Old))
		}
		have, isDecl = legacy, isDeclarationOrComment
	}
	n := o.New.clone()
	prolog, after, err := withDeclarations(doc, have, n, isDecl)
	if err != nil {
		return err
	}
	doc.Doctype, doc.Prolog, doc.Epilog, doc.DoctypeAfter = n.Doctype, prolog, n.Epilog, after
	return nil
}

// withDeclarations returns the prolog of new with the XML declarations of
// doc's prolog (isDecl) put back, which a delta leaves out, and the
// DoctypeAfter of a document with that prolog; old is doc's surroundings
// without them. A declaration
// keeps its place beside the nodes around it that the change leaves: after
// the same ones of those that stay at the start, before the same ones of
// those that stay at the end, and among the nodes the change rewrote (in
// between) after at most as many as before. In the gap of the DOCTYPE it
// stays on its side of it when it shared that gap before, and stands
// before it (after the node it followed) when it did not; one leading the
// prolog leads it still. A delta does not say where a declaration stands,
// so a version whose declaration moved among nodes that stay, or that
// gained or lost one, is not what Apply rebuilds: that is no change
// outside the root. The error is an internal one, of places out of order.
func withDeclarations(doc *tree.Document, old, new Surroundings, isDecl func(*tree.Node) bool) ([]*tree.Node, int, error) {
	type kept struct {
		n       *tree.Node
		gap     int  // how many of old's nodes precede it, then of new's
		beforeT bool // it stands before the DOCTYPE, in its gap
	}
	doctypeAt := len(doc.Prolog) // the DOCTYPE's index among doc's prolog nodes
	if doc.Doctype != "" {
		decl, before, _ := doc.SplitProlog()
		doctypeAt = len(before)
		if decl != nil {
			doctypeAt++
		}
	}
	var decls []kept
	k := 0
	for i, p := range doc.Prolog {
		if isDecl(p) {
			// Only one in the DOCTYPE's gap can stand after it: another
			// follows the node before it, the DOCTYPE being elsewhere.
			decls = append(decls, kept{p, k, k != old.DoctypeAfter || old.Doctype == "" || i < doctypeAt})
		} else {
			k++
		}
	}
	if len(decls) == 0 {
		return new.Prolog, new.DoctypeAfter, nil
	}
	lo, ln := len(old.Prolog), len(new.Prolog)
	p := 0 // unchanged at the start
	for p < lo && p < ln && tree.SameLeaf(old.Prolog[p], new.Prolog[p]) {
		p++
	}
	q := 0 // unchanged at the end, after those
	for q < lo-p && q < ln-p && tree.SameLeaf(old.Prolog[lo-1-q], new.Prolog[ln-1-q]) {
		q++
	}
	for i := range decls {
		switch g := decls[i].gap; {
		case g <= p:
		case g >= lo-q:
			decls[i].gap = g + ln - lo
		default:
			decls[i].gap = min(g, ln-q)
		}
	}
	doctypeGap := -1
	if new.Doctype != "" {
		doctypeGap = new.DoctypeAfter
	}
	// The gaps stay in order (those at the start are at most p, those
	// between at least p and at most ln-q, those at the end at least
	// ln-q), so the declarations of each gap are a run of decls.
	prolog := make([]*tree.Node, 0, ln+len(decls))
	doctypeAt = 0
	j := 0
	for g := 0; g <= ln; g++ {
		start := j
		for j < len(decls) && decls[j].gap == g {
			j++
		}
		for _, d := range decls[start:j] {
			if g != doctypeGap || d.beforeT {
				prolog = append(prolog, d.n)
			}
		}
		if g == doctypeGap {
			doctypeAt = len(prolog)
			for _, d := range decls[start:j] {
				if !d.beforeT {
					prolog = append(prolog, d.n)
				}
			}
		}
		if g < ln {
			prolog = append(prolog, new.Prolog[g])
		}
	}
	if j != len(decls) { // the gaps above are in order
		return nil, 0, fmt.Errorf("apply delta: internal error: %d XML declarations before the root are out of order", len(decls)-j)
	}
	if doctypeAt > 0 && tree.IsXMLDeclaration(prolog[0]) {
		doctypeAt-- // the declaration leading the prolog is not counted
	}
	return prolog, doctypeAt, nil
}

// composeOutside returns the change of two consecutive deltas outside the
// root, or an error when the second does not start where the first ends
// (outsideFollows). When one of them was written before deltas carried a
// comment <!--?xml ...?--> before the root of a document read as XML, the
// composition is what Apply does with the two in turn: the other's
// surroundings with that delta applied as Apply applies it, keeping the
// comments where they stand (applyOutside). For the first written so,
// the source's comments stand where undoing the first delta puts the
// second's source's back; when the first delta does not lead from there
// alone to the second's source (onlySource), the source's cannot be told,
// and the composition is refused (ErrNeedsDocuments).
func composeOutside(a, b *Outside) (*Outside, error) {
	switch {
	case a == nil:
		return b.unplaced(), nil
	case b == nil:
		return a.unplaced(), nil
	case a.New.equal(b.Old):
		return outsideChange(a.Old, b.New), nil
	case !outsideFollows(a.New, b):
		return nil, fmt.Errorf("outside the root element, the first delta leaves %s", a.New.describe(b.Old))
	case hasDeclarationComment(a.New):
		// The second written before: applied to what the first leaves.
		last, err := applySurroundings(a.New, b)
		if err != nil {
			return nil, err
		}
		return outsideChange(a.Old, last), nil
	}
	// The first written before: its source's comments are the second's
	// source's.
	first, err := applySurroundings(b.Old, invertOutside(a))
	if err != nil {
		return nil, err
	}
	if mid, err := applySurroundings(first, a); err != nil || !mid.equal(b.Old) || !onlySource(first, a) {
		return nil, fmt.Errorf("%w: outside the root element, the first delta, written before deltas carried a comment <!--?xml ...?--> before the root, does not show where such a comment stood in its source; use ComposeWith", ErrNeedsDocuments)
	}
	return outsideChange(first, b.New), nil
}

// maxSourceTries bounds the surroundings onlySource tries.
const maxSourceTries = 4096

// onlySource reports whether first is the only source, as to where its
// comments shaped like an XML declaration stand, from which Apply takes
// a delta written before deltas carried them (a) to where it takes first:
// one of them moved to any other place (beside another node, on the
// other side of the DOCTYPE) leads elsewhere. Apply places them by the
// nodes a keeps around them, so one among nodes a rewrites could have
// stood among them elsewhere. Past maxSourceTries places, it reports
// false.
func onlySource(first Surroundings, a *Outside) bool {
	want, err := applySurroundings(first, a)
	if err != nil {
		return false
	}
	var seq []*tree.Node // first's prolog, nil standing for the DOCTYPE
	for k, n := range first.Prolog {
		if first.Doctype != "" && k == first.DoctypeAfter {
			seq = append(seq, nil)
		}
		seq = append(seq, n)
	}
	if first.Doctype != "" && first.DoctypeAfter >= len(first.Prolog) {
		seq = append(seq, nil)
	}
	tries := 0
	for i, n := range seq {
		if n == nil || !tree.IsXMLDeclarationComment(n) {
			continue
		}
		rest := slices.Delete(slices.Clone(seq), i, i+1)
		for j := range len(rest) + 1 {
			if tries++; tries > maxSourceTries {
				return false
			}
			alt := Surroundings{Doctype: first.Doctype, Epilog: first.Epilog}
			for _, m := range slices.Insert(slices.Clone(rest), j, n) {
				if m == nil {
					alt.DoctypeAfter = len(alt.Prolog)
				} else {
					alt.Prolog = append(alt.Prolog, m)
				}
			}
			if alt.equal(first) {
				continue
			}
			if got, err := applySurroundings(alt, a); err == nil && got.equal(want) {
				return false
			}
		}
	}
	return true
}

// outsideFollows reports whether a delta whose change outside the root is
// o applies to what the deltas before it leave there (left), as Apply
// applies it (applyOutside): where it finds left, or, in a document read
// as XML, across a delta written before deltas carried a comment
// <!--?xml ...?--> before its root, which leaves them out: when o was
// written so (left holds such comments, o neither, and left without them
// is o.Old) or the delta before it was (left holds none, and o.Old without
// its own is left, Apply having kept the document's where they stand).
func outsideFollows(left Surroundings, o *Outside) bool {
	switch {
	case left.equal(o.Old):
		return true
	case hasDeclarationComment(left):
		return !hasDeclarationComment(o.New) && left.withoutDeclarationComments().equal(o.Old)
	default:
		return hasDeclarationComment(o.Old) && o.Old.withoutDeclarationComments().equal(left)
	}
}

// hasDeclarationComment reports whether s holds before the root a comment
// shaped like an XML declaration (tree.IsXMLDeclarationComment), which
// deltas written before they carried it in a document read as XML leave
// out.
func hasDeclarationComment(s Surroundings) bool {
	return slices.ContainsFunc(s.Prolog, tree.IsXMLDeclarationComment)
}

// withoutDeclarationComments returns s as a delta written before deltas
// carried a comment <!--?xml ...?--> before the root of a document read
// as XML has it: without those comments.
func (s Surroundings) withoutDeclarationComments() Surroundings {
	return surroundingsOf(s.Doctype, s.DoctypeAfter, s.Prolog, s.Epilog, true)
}

// applySurroundings returns what stands outside the root of a document
// read as XML whose surroundings are s once Apply has applied o to it.
func applySurroundings(s Surroundings, o *Outside) (Surroundings, error) {
	doc := &tree.Document{Doctype: s.Doctype, DoctypeAfter: s.DoctypeAfter, Prolog: s.Prolog, Epilog: s.Epilog}
	if err := applyOutside(doc, o.unplaced()); err != nil {
		return Surroundings{}, err
	}
	return surroundingsOfDocument(doc), nil
}

// Changed reports which parts of the surroundings o changes: the DOCTYPE
// (white space aside) or its place, the nodes before the root, those after
// it.
func (o *Outside) Changed() (doctype, prolog, epilog bool) {
	return !sameDoctype(o.Old.Doctype, o.New.Doctype) || o.Old.DoctypeAfter != o.New.DoctypeAfter, !tree.SameLeaves(o.Old.Prolog, o.New.Prolog), !tree.SameLeaves(o.Old.Epilog, o.New.Epilog)
}

// unplaced returns o without the place it was decoded from: the change of
// a composition, which no file holds.
func (o *Outside) unplaced() *Outside {
	if o == nil || o.at == (place{}) {
		return o
	}
	c := *o
	c.at = place{}
	return &c
}

// invertOutside returns the change that undoes o.
func invertOutside(o *Outside) *Outside {
	if o == nil {
		return nil
	}
	return &Outside{Old: o.New, New: o.Old, at: o.at}
}

// sameOutside reports whether two deltas change the outside alike.
func sameOutside(a, b *Outside) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Old.equal(b.Old) && a.New.equal(b.New)
}
