//go:build !linux

package graph

import bolt "go.etcd.io/bbolt"

func releaseMap(*bolt.DB) {}
