// Package tree is Vigil's model of a document: an ordered labelled tree of
// elements, text, comments and processing instructions, with the persistent
// node identifiers (XIDs) and per-subtree signatures and weights that XyDiff
// and XyDelta work on.
//
// It implements the data model of G. Cobéna, "Change management of
// semi-structured data on the Web", PhD thesis, École Polytechnique, 2003,
// chapter 3 (signatures and weights, §3.3-3.5) and chapter 4 (XIDs and
// XID-maps, §4.1).
//
// A Document holds one root element. Everything before and after the root
// element that is not part of it (the XML declaration, DOCTYPE, comments and
// processing instructions outside the root) is kept in Document.Prolog and
// Document.Epilog for serialisation; it is not part of the diffed tree. The
// XML declaration is the processing instruction xml that leads the prolog
// (IsXMLDeclaration); what an HTML parser makes of one, a comment
// (IsXMLDeclarationComment), is a comment of the prolog like any other.
// Document.HTML says an HTML parser read the document, so that package
// delta can tell that comment from one an XML document's author wrote.
//
// # XIDs
//
// An XID is a persistent identifier. A fresh document numbers its nodes in
// post-order (descendants first), so the root gets the largest XID and every
// subtree has a contiguous run; AssignXIDs does this. An XID-map lists the
// XIDs of a subtree in post-order, with runs written as ranges, and, for a
// whole document, the next free XID after a bar: (1-4;10;12;14-15|100).
// XIDMap holds a map listed, for the subtrees a delta inserts or deletes;
// XIDRanges holds it as its runs, for a whole version's map, which a
// delta carries whatever the size of its change: a document's XIDs stay in
// a few runs, so the map of a million nodes costs a few runs, not a
// million XIDs.
//
// # Signatures and weights
//
// Signature is a 64-bit hash of a node's kind, label, attributes (as a set:
// their order does not matter) and the signatures of its children in order,
// so two subtrees with equal signatures are, with overwhelming probability,
// equal. Weight is 1 plus the weights of the children for an element, and
// 1 + ln(length) for text, comments and processing instructions, as the seed
// defines. Measure stores weights as float32, four bytes a node rather than
// eight, each rounded from the float64 sum of its children's float64
// weights: two weights closer than float32 can tell apart (about one part
// in sixteen million, so a child and its parent from 2^24 up) may weigh
// the same, a tie that the diff breaks by post-order as it does every tie
// (on the corpus's 481 pairs of versions and 24 generated ones, no delta
// changed). On a pair of 10 MB documents the diff
// asks the runtime for 5 MB less, memory it would otherwise clear and, when
// given back to the system, fault in again.
//
// # Flat trees and measures
//
// Flat is the same tree laid out in post-order arrays: kind, name (an index
// into a table of the document's distinct names), value, attributes,
// subtree size, parent and position among the siblings of each node, with
// no pointer between nodes. The XML parser builds it directly
// (markup.ParseXMLFlat), through FlatBuilder; Flatten lays out a *Node tree
// and Flat.Document builds one back. A node's subtree is the range
// [i-Size[i]+1, i]; its children are found from the last (i-1) back, each
// starting where the previous one's subtree begins (Flat.Children,
// Flat.ChildList), but for a node with many children (32 or more), whose
// list the Flat keeps as it is built: walked so, they would be a chain of
// reads each waiting for the one before, from memory on a large document
// (ChildList and AppendChildren copy the list).
//
// MeasureFlat computes, in one pass over those arrays, each node's
// signature and weight. The diff reads only arrays: on a document
// of a million nodes they take about 60 bytes a node against some 150 for
// the *Node tree and its measures, so they stay in the processor's caches
// far longer, and the garbage collector, which has no pointers to follow in
// them, barely scans them. MeasureTree measures a *Node subtree by
// flattening it first.
//
// # Paths and positions
//
// Path and Flat.Path name a node by the names of its ancestors and their
// positions among same-named siblings (/catalog[1]/product[2]/text()[1]),
// counting the siblings at each call. To name many nodes of one tree, as a
// list of changes does, NodePaths and FlatPaths number each parent's
// children once, so that naming every item of a long list takes linear
// time rather than quadratic; Indexes does the same for Node.Index.
//
// # Differences from the seed
//
//   - The seed's reference implementation hashes with a 32-bit function and
//     leaves attributes out of the signature. Vigil uses 64 bits (the seed's
//     notes warn of false identities on large corpora with 32) and includes
//     attributes, so that equal signatures mean equal subtrees and a matched
//     identical subtree needs no attribute operations.
//   - The seed drops comments and processing instructions. Vigil keeps them
//     as explicit leaf kinds so that serialisation round-trips; they diff like
//     text nodes.
//   - All traversals are iterative: a document nested 100 000 deep is walked
//     without growing the goroutine stack.
package tree
