/**
 * Provider installation pieces: source addresses, filesystem mirrors in Terraform's unpacked and
 * packed layouts ({@link FilesystemMirror}), package hashes ({@link PackageHashes}: {@code h1:} and
 * {@code zh:}) and the dependency lock file {@code .terraform.lock.hcl} ({@link LockFile}).
 */
package dev.strata.tfplugin.install;
