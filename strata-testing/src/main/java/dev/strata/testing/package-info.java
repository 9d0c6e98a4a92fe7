/**
 * Test fixtures shared by the test suites of all Strata modules (a test-scope dependency, never in a
 * shipped jar). Everything that needs an outside program skips the calling test through a JUnit
 * assumption where the program is absent, so the suites run everywhere and use what a machine has.
 */
package dev.strata.testing;
