// Package schemadiff_test compares the schema that the PostgreSQL
// migrations make with the one the SQLite migrations make, after all of
// them: tables, columns with their kind and nullability, primary keys,
// unique constraints and indexes, and foreign keys. The two migration
// trees are written by hand, one per dialect; any difference that is not
// listed in deliberate (with its reason) fails the test.
package schemadiff_test
