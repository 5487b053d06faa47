package xmlpatch

import "github.com/vigil-web/vigil/tree"

// stringValues compares the string values of elements (XPath's: the
// texts of the element's subtree, in document order, end to end) with the
// values of [.='v'] and [name='v'] predicates, during one evaluation of a
// selector, when the document does not change.
//
// Computing a string value walks the element's subtree, and a selector
// with such a predicate at each step of a deep path would walk the
// subtrees of all the elements on the path: the square of the depth. So
// stringValues lays out a subtree once, its texts in order with their
// running lengths, and an element's string value is a run of them: its
// length is a subtraction, and only a value of the right length is
// compared, text by text, without being built.
type stringValues struct {
	w     *work
	texts []string
	ends  []int                 // ends[i]: the length of texts[:i+1] end to end
	span  map[*tree.Node][2]int // an element's texts: texts[span[0]:span[1]]
	stack []stringValueFrame    // layout's, kept between calls
}

type stringValueFrame struct {
	n     *tree.Node
	next  int // the next child to visit
	start int // len(texts) when n was entered
}

// reset forgets the string values, when the document may have changed.
// It keeps the memory for the next selector, but for a large map, which
// clear would go through whole each time.
func (sv *stringValues) reset() {
	if len(sv.span) > 4096 {
		sv.span = nil
	} else {
		clear(sv.span)
	}
	clear(sv.texts)
	sv.texts = sv.texts[:0]
	sv.ends = sv.ends[:0]
}

// offset returns the length of texts[:i] end to end.
func (sv *stringValues) offset(i int) int {
	if i == 0 {
		return 0
	}
	return sv.ends[i-1]
}

// equals reports whether the string value of element n is v. It may
// return anything once the work is over its limit.
func (sv *stringValues) equals(n *tree.Node, v string) bool {
	if n.Kind == tree.Text {
		sv.w.compared(len(v))
		return n.Value == v
	}
	sp, ok := sv.span[n]
	if !ok {
		sv.layout(n)
		if sp, ok = sv.span[n]; !ok {
			return false // the work is over
		}
	}
	sv.w.add(1)
	if sv.offset(sp[1])-sv.offset(sp[0]) != len(v) {
		return false
	}
	at := 0
	for _, t := range sv.texts[sp[0]:sp[1]] {
		sv.w.compared(len(t))
		if v[at:at+len(t)] != t {
			return false
		}
		at += len(t)
	}
	return true
}

// layout records the texts of n's subtree and the span of each element
// in it (again for those laid out before), one unit of work a node. It
// stops when the work passes its limit.
func (sv *stringValues) layout(n *tree.Node) {
	if sv.span == nil {
		sv.span = map[*tree.Node][2]int{}
	}
	stack := append(sv.stack[:0], stringValueFrame{n: n, start: len(sv.texts)})
	sv.w.add(1)
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.next == len(top.n.Children) {
			sv.span[top.n] = [2]int{top.start, len(sv.texts)}
			stack = stack[:len(stack)-1]
			continue
		}
		if sv.w.over() {
			break
		}
		c := top.n.Children[top.next]
		top.next++
		sv.w.add(1)
		switch c.Kind {
		case tree.Element:
			stack = append(stack, stringValueFrame{n: c, start: len(sv.texts)})
		case tree.Text:
			sv.texts = append(sv.texts, c.Value)
			sv.ends = append(sv.ends, sv.offset(len(sv.texts)-1)+len(c.Value))
		}
	}
	clear(stack)
	sv.stack = stack[:0]
}
