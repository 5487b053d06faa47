package webtable

import "time"

// NodeID names a Web document across the warehouse: one node id per URL, so
// that equal node ids mean equal URLs (seed 000 §3.3).
type NodeID string

// VersionID names one version of a node: one version id per (URL,
// last-modification date), reused whenever a later poll fetches a URL whose
// date has not changed. Two nodes are identical when they have the same node
// id and the same version id.
type VersionID string

// LinkID names a link object in a table's link pool.
type LinkID string

// TupleID names a web tuple in its table ("t1", "Drugs#7"). Tuples of
// different tables are never related by their ids, only by the nodes they
// share.
type TupleID string

// LinkType is the WebSQL type of a hyperlink (seed 004 §2.1).
type LinkType string

// The link types. The empty LinkType means the type was not recorded.
const (
	Interior LinkType = "interior" // to a fragment of the same document
	Local    LinkType = "local"    // to another document of the same site
	Global   LinkType = "global"   // to a document of another site
)

// Node is a node object as the table node pool records it: the identity of
// one version of one Web document and the metadata that identity rests on.
// The document's content (its data tree) lives in the warehouse; the
// operators of this package need only the identity.
type Node struct {
	ID      NodeID    `json:"id"`
	Version VersionID `json:"version"`
	URL     string    `json:"url"`
	// Modified is the last-modification date, the zero time when the server
	// gave none (the seed leaves such pages out; a warehouse may version
	// them by content instead, see the package documentation).
	Modified time.Time `json:"modified,omitzero"`
}

// Link is a link object as the table node pool records it: a hyperlink from
// one node of the table to another.
type Link struct {
	ID    LinkID   `json:"id"`
	From  NodeID   `json:"from"`            // the document that holds the link
	To    NodeID   `json:"to"`              // the document it leads to
	Label string   `json:"label,omitempty"` // the anchor text
	Type  LinkType `json:"type,omitempty"`
}

// Tuple is a web tuple: a small directed graph of nodes and the links
// between them, recorded, as in the seed's web tuple pool, by the ids of its
// nodes and links.
type Tuple struct {
	ID    TupleID  `json:"id"`
	Nodes []NodeID `json:"nodes"`
	Links []LinkID `json:"links,omitempty"`
}

// Table is a web table ⟨Z, S, T⟩: its name Z, its tuples T, and the table
// node pool that holds each node and link object of the tuples once. Within
// a table a node id has one version. Web schemas (S) are not modelled.
//
// A Table is a plain value; the operators validate it (see Validate) and
// never modify it. The pools may hold entries that no tuple uses; such
// entries take no part in the operators.
type Table struct {
	Name   string  `json:"name"`
	Nodes  []Node  `json:"nodes"`
	Links  []Link  `json:"links,omitempty"`
	Tuples []Tuple `json:"tuples"`
}
