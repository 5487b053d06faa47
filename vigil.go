// Package vigil holds Vigil's domain: the types that every layer talks in
// (sentinels, resources, versions, changes, notifications, users) and the
// interfaces that services and adapters meet at.
//
// The package imports only the standard library and performs no I/O. Policy
// lives in the services under internal/, and each outside dependency has one
// adapter package under internal/. Only cmd/vigil wires them together.
package vigil
