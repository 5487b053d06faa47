// Package vigil holds Vigil's domain: the types that every layer talks in
// (sentinels, resources, versions, changes, notifications, users) and the
// interfaces that services and adapters meet at.
//
// Due sentinels are claimed by ClaimPriority: how late each is plus its
// pages' importance times ImportanceLead, the refresh order (importance ×
// staleness × change rate) of Cobéna's thesis §8.3.2, made additive so
// that nothing starves.
//
// The package imports only the standard library and performs no I/O. Policy
// lives in the services under internal/, and each outside dependency has one
// adapter package under internal/. Only cmd/vigil wires them together.
package vigil
