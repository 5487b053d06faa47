package intent

import (
	"fmt"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/vigil-web/vigil/delta"
	"github.com/vigil-web/vigil/spec"
	"github.com/vigil-web/vigil/tree"
)

// DefaultPhraseThreshold is the seed's f (§4.6.5) when Options leave it
// zero: a phrase that is gone is reported as updated when at least this
// share of its words survive, in order, where it stood, and at least two
// of them (minPhraseKept), or one, the other swapped in place in a
// sentence otherwise kept (wordSwapped).
const DefaultPhraseThreshold = 0.5

// Options tune the detection. The zero value gives Vigil's defaults.
type Options struct {
	// Optimize turns on the seed's Phase III: common second-level subtrees
	// are removed before Phase I (with the note's repair: they are aligned
	// by an LCS, so reordered subtrees are still compared).
	Optimize bool
	// SeedOnly reports for any change only the seed's operations: a leaf
	// whose value changed in place is a delete and an insert, not an
	// update. Phrase updates are governed by PhraseThreshold.
	SeedOnly bool
	// PhraseThreshold is the seed's f; 0 means DefaultPhraseThreshold and
	// a value above 1 turns phrase updates off (the seed's implementation).
	PhraseThreshold float64
	// CaseSensitive compares words, keywords and phrases with their case;
	// by default they are compared case-folded. Punctuation around words is
	// never part of the comparison ("J." matches "J").
	CaseSensitive bool
}

func (o *Options) phraseThreshold() float64 {
	if o.PhraseThreshold == 0 {
		return DefaultPhraseThreshold
	}
	return o.PhraseThreshold
}

// Pair is two versions of one document to compare, and the results
// computed on them so far: each extraction (per scope and ignore list) and
// each primitive change type is computed once per Pair, however many
// sentinels and composite expressions ask for it (the seed's change
// detection graph, §2.5). A Pair is safe for concurrent use; its documents
// must not change while it is in use.
type Pair struct {
	Old, New *tree.Document
	// Delta, if not nil, is the delta from Old to New (treediff.Diff). An
	// empty delta answers every change type with "no change" at once.
	Delta *delta.Delta
	// OldURL and NewURL are the addresses Old and New were read from: links
	// and image sources are compared as they resolve against them (and a
	// <base href>), so that href="/a" and href="https://site/a" are one
	// link. Empty, they are compared as written.
	OldURL, NewURL string
	// OldReadAsText and NewReadAsText say that Old and New are pages read
	// as their source text: a body served as text that is not markup
	// (text/plain, JSON, CSS...) or one that does not parse, which the
	// reader (Vigil's warehouse) makes an HTML page whose body is one
	// <pre> holding the text, one text node a line. Such a page's links
	// are the absolute http(s) URLs written in its text (TextLinks), at
	// the text node of their line, and the URLs its tags write relative
	// in href and src, resolved as a page's; a page's links are its a
	// and area elements, and the URLs written in its own <pre> are none.
	OldReadAsText, NewReadAsText bool
	// OldSource and NewSource are, for a pair whose versions are read
	// differently (one as markup, the other as its source text: a feed
	// served malformed for one check, a page served as text/plain one day
	// and text/html the next), the markup side read as its source text as
	// the reader reads a body that does not parse (one <pre>, one text node
	// a line). Given, the pair is compared like with like, the two source
	// texts for every change type: its links are the URLs written in both
	// texts, so that a check that could not read the page as its type
	// reports no link the document did not change; a text has no images,
	// tables or lists. A change type's scope and ignore list select in the
	// two texts read as HTML (see the package doc). The other is ignored,
	// and so are both when the versions are read alike. Not given, each side
	// is compared as it is read.
	OldSource, NewSource *tree.Document
	Options

	mu        sync.Mutex
	selectors map[string]Selector
	contents  map[string]*contentPair
	bases     map[pageBaseKey]*url.URL // pageBase
	results   map[string]*Result
	tab       *symtab
	paths     pathCache
	// lenient are the two source texts read as HTML, for selectors
	// (comparedIn), once lenientDone; lenientErr is why they are not.
	lenient     [2]*tree.Document
	lenientErr  error
	lenientDone bool
}

// NewPair returns a Pair of old and new. d may be nil; opt may be nil.
func NewPair(old, new *tree.Document, d *delta.Delta, opt *Options) *Pair {
	p := &Pair{Old: old, New: new, Delta: d}
	if opt != nil {
		p.Options = *opt
	}
	return p
}

// contentPair is the content of both versions under one scope and ignore
// list, with what is shared between change types.
type contentPair struct {
	old, new *content
	align    []int // old word -> new word, -1 off the word LCS (lazy)
	alignNew []int // new word -> old word
	aligned  bool
	states   [2][]uint8 // Phase I states of the leaves, shared by any change and keywords
}

// Evaluate evaluates a change-type expression: C_t for a primitive change
// type, and for the composites the seed's formulas (§5.3): (NOT C)(V1,V2) =
// ¬C(V1,V2), (C1 AND C2)(V1,V2) = C1(V1,V2) ∧ C2(V1,V2), (C1 OR C2)(V1,V2)
// = C1(V1,V2) ∨ C2(V1,V2). Both operands are always evaluated, so that the
// result carries every operand's changes; each primitive is computed once
// per Pair. Each result's Type is its expression's label (spec.Label),
// made of its operands' labels: the work stays linear in the expression's
// size, however long its AND or OR chains.
func (p *Pair) Evaluate(x spec.Expr) (*Result, error) {
	switch x := x.(type) {
	case *spec.ChangeType:
		return p.Primitive(x)
	case *spec.NotExpr:
		r, err := p.Evaluate(x.X)
		if err != nil {
			return nil, err
		}
		return &Result{Type: spec.Label(x, r.Type), Op: "NOT", Matched: !r.Matched, Operands: []*Result{r}}, nil
	case *spec.BinaryExpr:
		a, err := p.Evaluate(x.X)
		if err != nil {
			return nil, err
		}
		b, err := p.Evaluate(x.Y)
		if err != nil {
			return nil, err
		}
		r := &Result{Type: spec.Label(x, a.Type, b.Type), Operands: []*Result{a, b}}
		switch x.Op {
		case spec.And:
			r.Op, r.Matched = "AND", a.Matched && b.Matched
		case spec.Or:
			r.Op, r.Matched = "OR", a.Matched || b.Matched
		default:
			return nil, fmt.Errorf("intent: unknown operator %v", x.Op)
		}
		return r, nil
	case nil:
		return nil, fmt.Errorf("intent: no change-type expression")
	}
	return nil, fmt.Errorf("intent: unknown expression %T", x)
}

// Primitive evaluates one primitive change type, or returns its cached
// result. The result must not be modified.
func (p *Pair) Primitive(ct *spec.ChangeType) (*Result, error) {
	if ct == nil {
		return nil, fmt.Errorf("intent: nil change type")
	}
	key := spec.Print(ct)
	p.mu.Lock()
	defer p.mu.Unlock()
	if r, ok := p.results[key]; ok {
		return r, nil
	}
	label := spec.Label(ct) // what is shown of it: a long list is cut
	r, err := p.primitive(ct)
	if err != nil {
		return nil, fmt.Errorf("intent: %s: %w", label, err)
	}
	r.Type = label
	if r.ScopeNotApplied, r.NotApplied, err = p.scopeNotApplied(ct); err != nil {
		return nil, fmt.Errorf("intent: %s: %w", label, err)
	}
	r.Matched = r.Matched || len(r.Changes) > 0
	boundTexts(r.Changes)
	if p.results == nil {
		p.results = make(map[string]*Result)
	}
	p.results[key] = r
	return r, nil
}

func (p *Pair) selector(s *spec.Selector) (Selector, error) {
	key := s.Lang.String() + " " + s.Expr.Value
	if sel, ok := p.selectors[key]; ok {
		return sel, nil
	}
	sel, err := Compile(s)
	if err != nil {
		return nil, err
	}
	if p.selectors == nil {
		p.selectors = make(map[string]Selector)
	}
	p.selectors[key] = sel
	return sel, nil
}

// content returns the content pair for a change type's scope and ignores.
func (p *Pair) content(ct *spec.ChangeType) (*contentPair, error) {
	var b strings.Builder
	var scope Selector
	var ignore []Selector
	if ct.Scope != nil && ct.Scope.Expr != nil {
		s, err := p.selector(ct.Scope)
		if err != nil {
			return nil, err
		}
		scope = s
		fmt.Fprintf(&b, "in %s %q", ct.Scope.Lang, ct.Scope.Expr.Value)
	}
	for _, ig := range ct.Ignore {
		if ig == nil || ig.Expr == nil {
			continue
		}
		s, err := p.selector(ig)
		if err != nil {
			return nil, err
		}
		ignore = append(ignore, s)
		fmt.Fprintf(&b, " ignore %s %q", ig.Lang, ig.Expr.Value)
	}
	key := b.String()
	if cp, ok := p.contents[key]; ok {
		return cp, nil
	}
	if p.tab == nil {
		p.tab = newSymtab()
	}
	oldDoc, newDoc, oldText, newText, notApplied := p.comparedIn(scope, scope != nil || len(ignore) > 0)
	if notApplied != "" {
		scope, ignore = nil, nil
	}
	cp := &contentPair{
		old: newContent(oldDoc, scope, ignore, p.CaseSensitive, p.tab).at(p, p.OldURL),
		new: newContent(newDoc, scope, ignore, p.CaseSensitive, p.tab).at(p, p.NewURL),
	}
	cp.old.asText, cp.new.asText = oldText, newText
	if p.contents == nil {
		p.contents = make(map[string]*contentPair)
	}
	p.contents[key] = cp
	return cp, nil
}

// compared returns the documents the pair compares, and whether each is
// read as its source text: Old and New as they are read, but for a pair
// whose versions are read differently and whose markup side's source is
// given (OldSource, NewSource), the two source texts.
func (p *Pair) compared() (old, new *tree.Document, oldText, newText bool) {
	old, new, oldText, newText = p.Old, p.New, p.OldReadAsText, p.NewReadAsText
	switch {
	case oldText && !newText && p.NewSource != nil && p.NewSource.Root != nil:
		new, newText = p.NewSource, true
	case newText && !oldText && p.OldSource != nil && p.OldSource.Root != nil:
		old, oldText = p.OldSource, true
	}
	return old, new, oldText, newText
}

func argValues(ct *spec.ChangeType) []string {
	out := make([]string, 0, len(ct.Args))
	for _, a := range ct.Args {
		if a != nil {
			out = append(out, a.Value)
		}
	}
	return out
}

func (p *Pair) primitive(ct *spec.ChangeType) (*Result, error) {
	if p.Old == nil || p.New == nil || p.Old.Root == nil || p.New.Root == nil {
		return nil, fmt.Errorf("both versions need a root element")
	}
	if p.Delta != nil && p.Delta.Empty() {
		return &Result{}, nil
	}
	if ct.Kind == spec.Value && len(ct.Ignore) == 0 {
		// value reads the scope's values itself; it extracts the content
		// only to leave the ignored regions out.
		return p.value(ct)
	}
	cp, err := p.content(ct)
	if err != nil {
		return nil, err
	}
	args := argValues(ct)
	switch ct.Kind {
	case spec.AnyChange:
		return &Result{Changes: p.anyChange(cp)}, nil
	case spec.Keywords:
		return &Result{Changes: p.keywords(cp, args)}, nil
	case spec.Phrase:
		return &Result{Changes: p.phrases(cp, args)}, nil
	case spec.Words:
		return &Result{Changes: p.words(cp, args)}, nil
	case spec.Links:
		return &Result{Changes: linkChanges(&p.paths, cp.old.linkObjects(), cp.new.linkObjects())}, nil
	case spec.Images:
		return &Result{Changes: imageChanges(&p.paths, cp.old.imageObjects(), cp.new.imageObjects())}, nil
	case spec.Table:
		return &Result{Changes: tableChanges(&p.paths, pickContainers(cp.old.tableObjects(), cp.new.tableObjects(), args))}, nil
	case spec.List:
		return &Result{Changes: listChanges(&p.paths, pickLists(cp.old.listObjects(), cp.new.listObjects(), args))}, nil
	case spec.Regex:
		var out []Change
		for _, a := range args {
			re, err := regexp.Compile(a)
			if err != nil {
				return nil, fmt.Errorf("regular expression %q: %w", a, err)
			}
			out = append(out, regexChanges(&p.paths, a, regexObjects(cp.old, re), regexObjects(cp.new, re))...)
		}
		return &Result{Changes: out}, nil
	case spec.Value:
		return p.value(ct)
	}
	return nil, fmt.Errorf("unknown change type %v", ct.Kind)
}

// cxLeaves wraps a content's leaves for CX-Diff.
func cxLeaves(c *content) []*cxLeaf {
	out := make([]*cxLeaf, len(c.leaves))
	backing := make([]cxLeaf, len(c.leaves))
	for i := range c.leaves {
		backing[i].leaf = &c.leaves[i]
		backing[i].pos = c.leaves[i].pos
		out[i] = &backing[i]
	}
	return out
}

func (p *Pair) cxOptions() cxOptions {
	return cxOptions{optimize: p.Optimize, updates: !p.SeedOnly, tab: p.tab}
}

// anyChange is CX-Diff's any change over every content leaf.
func (p *Pair) anyChange(cp *contentPair) []Change {
	opt := p.cxOptions()
	opt.states = &cp.states
	recs := cxdiff(cp.old.root, cxLeaves(cp.old), cp.new.root, cxLeaves(cp.new), cxAny, opt)
	out := make([]Change, 0, len(recs))
	for _, r := range recs {
		c := p.leafChange(KindNode, r)
		// A link's target or an image's source is shown as it
		// resolves, as the records of links and images name them.
		if r.old != nil {
			c.Old = cp.old.shown(r.old.leaf, c.Old)
		}
		if r.new != nil {
			c.New = cp.new.shown(r.new.leaf, c.New)
		}
		if sameURL(cp, r, c) {
			// Rewritten, not changed: the reader is shown the one
			// URL it was.
			continue
		}
		out = append(out, c)
	}
	return out
}

// leafChange converts a CX-Diff record on whole leaves.
func (p *Pair) leafChange(kind ObjectKind, r cxRecord) Change {
	pc := &p.paths
	c := Change{Kind: kind, Op: r.op}
	if r.old != nil {
		c.Old = r.old.value
		if d := r.old.display(); d != "" {
			c.Old = d
		}
		c.OldPos = int(r.old.pos)
		c.OldPath = pc.leaf(r.old.leaf)
		c.Signature = p.tab.sig(r.old.sid)
	}
	if r.new != nil {
		c.New = r.new.value
		if d := r.new.display(); d != "" {
			c.New = d
		}
		c.NewPos = int(r.new.pos)
		c.NewPath = pc.leaf(r.new.leaf)
		c.Signature = p.tab.sig(r.new.sid)
	}
	if r.op == Update && r.old != nil && r.new != nil {
		c.Fields = []string{"value"}
	}
	return c
}

// keywords is CX-Diff for keywords (Fig 4.6).
func (p *Pair) keywords(cp *contentPair, args []string) []Change {
	set := map[int32]bool{}
	for _, a := range args {
		for _, k := range phraseKeys(a, p.CaseSensitive) {
			set[p.tab.id(k)] = true
		}
	}
	found := false
	for _, c := range []*content{cp.old, cp.new} {
		for _, w := range c.words {
			found = found || set[w.id]
		}
	}
	if !found {
		return nil // no keyword in either version
	}
	// A word that inline markup splits (content.spans) is in each leaf
	// it spans, owned by the one it starts in: a change of any of them
	// changes it (a drop cap's letter, or the rest of its word).
	attach := func(c *content) []*cxLeaf {
		L := cxLeaves(c)
		for wi, w := range c.words {
			if !set[w.id] {
				continue
			}
			x := L[w.leaf]
			k := kwOcc{key: p.tab.names[w.id], text: w.text, idx: int(w.idx)}
			x.addKeyword(k)
			if c.spans != nil {
				k.owner = x
				c.wordLeaves(wi, func(li int32) {
					if li != w.leaf {
						L[li].addKeyword(k)
					}
				})
			}
		}
		return L
	}
	recs := cxdiff(cp.old.root, attach(cp.old), cp.new.root, attach(cp.new), cxKeyword, cxOptions{optimize: p.Optimize, tab: p.tab, states: &cp.states})
	if cp.old.spans != nil || cp.new.spans != nil {
		recs = oncePerOccurrence(recs)
	}
	if cp.old.root == cp.new.root && len(recs) > 0 {
		recs = p.keptKeywords(cp, recs)
	}
	out := make([]Change, 0, len(recs))
	for _, r := range recs {
		c := p.leafChange(KindKeyword, r)
		c.Old, c.New, c.Fields = "", "", nil
		if r.op == Delete {
			c.Old = keywordShown(r.kw.text)
		} else {
			c.New = keywordShown(r.kw.text)
		}
		c.WordPos = r.kw.idx
		out = append(out, c)
	}
	return out
}

// oncePerOccurrence drops the records of a keyword occurrence after its
// first: a word that inline markup splits is reported by each of its
// leaves that changed.
func oncePerOccurrence(recs []cxRecord) []cxRecord {
	type occ struct {
		op  Operation
		l   *leaf
		idx int
	}
	seen := make(map[occ]bool, len(recs))
	out := recs[:0]
	for _, r := range recs {
		x := r.new
		if r.op == Delete {
			x = r.old
		}
		k := occ{r.op, x.leaf, r.kw.idx}
		if !seen[k] {
			seen[k] = true
			out = append(out, r)
		}
	}
	return out
}

// keywordShown is a keyword occurrence as a record names it: the word as
// the page writes it (its case, its apostrophes), without the punctuation
// and symbols around it, which the comparison leaves out too (spec.WordKey): a
// keyword found in "(sale)," is "sale", in "C++." "C++".
func keywordShown(w string) string {
	if t := spec.TrimWord(w); t != "" {
		return t
	}
	return w
}

// keptKeywords drops the delete and the insert of a keyword occurrence
// that stayed where it was in the page's words: CX-Diff compares leaves by
// their element path, so a keyword the page merely set in <em> or <b>, or
// whose paragraph moved into another element, reads as deleted and
// inserted, while the word sequences (which markup does not cut) pair the
// two occurrences. Both go, or neither: an insert whose word the alignment
// pairs with an old one CX-Diff did not delete is a real one.
func (p *Pair) keptKeywords(cp *contentPair, recs []cxRecord) []cxRecord {
	p.alignWords(cp)
	inserted := map[int]int{} // new word index -> record index
	for k, r := range recs {
		if r.op == Insert && r.new != nil {
			if w := wordIndex(cp.new, r.new.leaf.pos, r.kw.idx); w >= 0 {
				inserted[w] = k
			}
		}
	}
	drop := make([]bool, len(recs))
	for k, r := range recs {
		if r.op != Delete || r.old == nil {
			continue
		}
		w := wordIndex(cp.old, r.old.leaf.pos, r.kw.idx)
		if w < 0 || !alignedInPlace(cp.align, len(cp.new.words), w, w) {
			continue
		}
		if ins, ok := inserted[cp.align[w]]; ok && !drop[ins] {
			drop[k], drop[ins] = true, true
		}
	}
	out := recs[:0]
	for k, r := range recs {
		if !drop[k] {
			out = append(out, r)
		}
	}
	return out
}

// alignedInPlace reports whether the words lo..hi of one version are
// paired by the word alignment align with as many consecutive words of the
// other (which has otherLen words), and they are anchored there: the word
// just before or just after them is paired with its neighbour there, or
// they start both sequences, or end both. The words stand where they
// stood, among the same words or at the same end of the scope's text.
// (The alignment is a longest common subsequence of the whole page: a word
// alone on it may have travelled anywhere.)
func alignedInPlace(align []int, otherLen, lo, hi int) bool {
	if lo < 0 || hi >= len(align) || lo > hi || align[lo] < 0 {
		return false
	}
	for k := lo; k <= hi; k++ {
		if align[k] != align[lo]+k-lo {
			return false
		}
	}
	before := lo == 0 && align[lo] == 0 || lo > 0 && align[lo-1] >= 0 && align[lo-1] == align[lo]-1
	after := hi == len(align)-1 && align[hi] == otherLen-1 || hi+1 < len(align) && align[hi+1] >= 0 && align[hi+1] == align[hi]+1
	return before || after
}

// phraseInPlace reports whether the words lo..hi of a phrase in one
// version stand in place (alignedInPlace) among the words other of the
// other version, and within one block there: a phrase whose words now end
// a heading and start the paragraph after it is gone.
func phraseInPlace(align []int, other []word, lo, hi int) bool {
	if !alignedInPlace(align, len(other), lo, hi) {
		return false
	}
	for k := align[lo] + 1; k <= align[hi]; k++ {
		if other[k].brk {
			return false
		}
	}
	return true
}

// wordIndex returns the index in c.words of word idx (1-based) of the leaf
// at 1-based position pos, or -1.
func wordIndex(c *content, pos int32, idx int) int {
	leaf := pos - 1
	k := sort.Search(len(c.words), func(k int) bool { return c.words[k].leaf >= leaf })
	for ; k < len(c.words) && c.words[k].leaf == leaf; k++ {
		if int(c.words[k].idx) == idx {
			return k
		}
	}
	return -1
}

// phrases is CX-Diff over the realigned leaves (Fig 7.4), with the
// phrase update of §4.6.5.
func (p *Pair) phrases(cp *contentPair, args []string) []Change {
	keys := make([][]string, len(args))
	for i, a := range args {
		keys[i] = phraseKeys(a, p.CaseSensitive)
	}
	L1 := phraseLeaves(cp.old, args, keys)
	L2 := phraseLeaves(cp.new, args, keys)
	recs := cxdiff(cp.old.root, L1, cp.new.root, L2, cxPhrase, cxOptions{optimize: p.Optimize, tab: p.tab})
	f := p.phraseThreshold()
	out := make([]Change, 0, len(recs))
	// The words of each update, old and new (first and last of each): a
	// phrase removed and one added may be the same edit of the same words
	// when both are watched ("free shipping" -> "fast shipping"), told
	// once.
	updated := map[[4]int]bool{}
	for _, r := range recs {
		c := p.leafChange(KindPhrase, r)
		if cp.old.root == cp.new.root && (r.op == Delete || r.op == Insert) {
			p.alignWords(cp)
			// The whole phrase stands where the words align, with a
			// word next to it or at an end of the text, and within a
			// block there too: only the markup around it changed (set in
			// <b>, its paragraph moved into another element).
			if r.op == Delete && phraseInPlace(cp.align, cp.new.words, r.old.phrase.wlo, r.old.phrase.whi) ||
				r.op == Insert && phraseInPlace(cp.alignNew, cp.old.words, r.new.phrase.wlo, r.new.phrase.whi) {
				continue
			}
		}
		if f <= 1 && cp.old.root == cp.new.root && (r.op == Delete || r.op == Insert) {
			var pat []string
			var window []word
			// The phrase's side, and the other.
			sw := swapSides{this: cp.old, other: cp.new, align: cp.align, alignOther: cp.alignNew}
			if r.op == Delete {
				pat = keys[phraseIndex(args, r.old.display())]
				sw.lo, sw.hi = r.old.phrase.wlo, r.old.phrase.whi
			} else {
				pat = keys[phraseIndex(args, r.new.display())]
				sw = swapSides{this: cp.new, other: cp.old, align: cp.alignNew, alignOther: cp.align,
					lo: r.new.phrase.wlo, hi: r.new.phrase.whi}
			}
			lo, hi := phraseWindow(sw.align, len(sw.other.words), sw.lo, sw.hi)
			if lo <= hi {
				window = sw.other.words[lo : hi+1]
			}
			sw.window = len(window)
			sim, kept, became := phraseSimilarity(p.tab, pat, window)
			// One word left of the phrase is what any text standing there
			// may share with it ("great shop." -> "shop."): the phrase is
			// gone, a delete (an insert), not an update. So is one whose
			// words are less than f of the text they are scattered in
			// (Big sale today in "Big news: our garage sale starts
			// today"); all its words with others put between them are an
			// update (Big sale starts today), but not the phrase itself
			// standing there.
			// Fewer words than minPhraseKept left (one of a phrase of
			// two) are an update only as a word swapped in a sentence
			// otherwise kept (see wordSwapped).
			if sim >= f && (kept >= minPhraseKept || p.wordSwapped(sw, pat, became)) && float64(kept) >= f*float64(len(became)) && (sim < 1 || len(became) > kept) {
				at := wordIndex(sw.other, became[0].leaf+1, int(became[0].idx))
				span := [4]int{sw.lo, sw.hi, at, at + len(became) - 1}
				if r.op == Insert {
					span = [4]int{span[2], span[3], span[0], span[1]}
				}
				if updated[span] {
					continue
				}
				updated[span] = true
				c.Op, c.Similarity = Update, sim
				c.Fields = []string{"text"}
				// Both sides as the pages write them: the phrase's own
				// occurrence, not the phrase as the sentinel gives it.
				if r.op == Delete {
					c.Old = wordsText(cp.old.words[r.old.phrase.wlo : r.old.phrase.whi+1])
					c.New = wordsText(became)
					c.NewPath = p.paths.leaf(&cp.new.leaves[became[0].leaf])
				} else {
					c.Old = wordsText(became)
					c.New = wordsText(cp.new.words[r.new.phrase.wlo : r.new.phrase.whi+1])
					c.OldPath = p.paths.leaf(&cp.old.leaves[became[0].leaf])
				}
			}
		}
		out = append(out, c)
	}
	return out
}

// minPhraseKept is the fewest words of a phrase, in order, that must be
// left where it stood for it to be updated rather than deleted, beside
// the seed's share f of its words (Options.PhraseThreshold): a phrase is
// several words together, and one word left of it ("shop" of "great
// shop") is no evidence of an edit, as any text may hold it, unless the
// other was swapped in place in a sentence otherwise kept (wordSwapped).
const minPhraseKept = 2

// wordsText returns the words as the page writes them, joined by spaces.
func wordsText(ws []word) string {
	texts := make([]string, len(ws))
	for i, w := range ws {
		texts[i] = w.text
	}
	return strings.Join(texts, " ")
}

func phraseIndex(args []string, display string) int {
	for i, a := range args {
		if a == display {
			return i
		}
	}
	return 0
}

// alignWords aligns the word sequences of both versions (an LCS on their
// comparison forms), once per content pair.
func (p *Pair) alignWords(cp *contentPair) {
	if cp.aligned {
		return
	}
	cp.aligned = true
	cp.align, cp.alignNew = alignWordSeqs(cp.old.words, cp.new.words)
}

func alignWordSeqs(a, b []word) ([]int, []int) {
	t1 := make([]int32, len(a))
	t2 := make([]int32, len(b))
	for i := range a {
		t1[i] = a[i].id
	}
	for j := range b {
		t2[j] = b[j].id
	}
	al := make([]int, len(a))
	bl := make([]int, len(b))
	for i := range al {
		al[i] = -1
	}
	for j := range bl {
		bl[j] = -1
	}
	for _, pr := range lcs(t1, t2) {
		al[pr.a], bl[pr.b] = pr.b, pr.a
	}
	return al, bl
}

// words reports changes to the page's words (all words except ...): runs
// of words off the word LCS, as inserted, deleted or replaced (update) text.
func (p *Pair) words(cp *contentPair, except []string) []Change {
	var a, b []word
	if len(except) == 0 {
		p.alignWords(cp)
		a, b = cp.old.words, cp.new.words
		return wordRuns(&p.paths, cp, a, b, cp.align, cp.alignNew)
	}
	ex := map[int32]bool{}
	for _, e := range except {
		for _, k := range phraseKeys(e, p.CaseSensitive) {
			ex[p.tab.id(k)] = true
		}
	}
	for _, w := range cp.old.words {
		if !ex[w.id] {
			a = append(a, w)
		}
	}
	for _, w := range cp.new.words {
		if !ex[w.id] {
			b = append(b, w)
		}
	}
	al, bl := alignWordSeqs(a, b)
	return wordRuns(&p.paths, cp, a, b, al, bl)
}

func wordRuns(pc *pathCache, cp *contentPair, a, b []word, al, bl []int) []Change {
	var out []Change
	join := func(ws []word) string {
		texts := make([]string, len(ws))
		for i, w := range ws {
			texts[i] = w.text
		}
		return strings.Join(texts, " ")
	}
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		if i < len(a) && j < len(b) && al[i] == j {
			i++
			j++
			continue
		}
		i0, j0 := i, j
		for i < len(a) && al[i] < 0 {
			i++
		}
		for j < len(b) && bl[j] < 0 {
			j++
		}
		c := Change{Kind: KindWord}
		switch {
		case i > i0 && j > j0:
			c.Op = Update
		case i > i0:
			c.Op = Delete
		default:
			c.Op = Insert
		}
		if i > i0 {
			c.Old, c.OldPos = join(a[i0:i]), i0+1
			l := &cp.old.leaves[a[i0].leaf]
			c.OldPath, c.Signature, c.WordPos = pc.leaf(l), cp.old.tab.sig(l.sid), int(a[i0].idx)
		}
		if j > j0 {
			c.New, c.NewPos = join(b[j0:j]), j0+1
			l := &cp.new.leaves[b[j0].leaf]
			c.NewPath, c.Signature = pc.leaf(l), cp.new.tab.sig(l.sid)
			if c.Op == Insert {
				c.WordPos = int(b[j0].idx)
			}
		}
		if i == i0 && j == j0 { // cannot happen with a consistent alignment
			break
		}
		out = append(out, c)
	}
	return out
}

var errValueScope = errorString("value needs a scope (In css|xpath \"...\")")

type errorString string

func (e errorString) Error() string { return string(e) }
