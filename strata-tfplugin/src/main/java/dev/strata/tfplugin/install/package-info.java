/**
 * Provider installation, offline, as {@code terraform init} does it:
 * {@link dev.strata.tfplugin.install.ProviderInstaller} (select versions, check and record hashes,
 * install into {@code .terraform/providers}; also {@code providers lock} and {@code providers mirror}),
 * the CLI configuration's {@code provider_installation} ({@link dev.strata.tfplugin.install.CliConfig},
 * {@link dev.strata.tfplugin.install.InstallationMethod}), filesystem mirrors in Terraform's unpacked
 * and packed layouts ({@link dev.strata.tfplugin.install.FilesystemMirror}), package hashes
 * ({@link dev.strata.tfplugin.install.PackageHashes}: {@code h1:} and {@code zh:}), the lock file's
 * constraint strings ({@link dev.strata.tfplugin.install.Constraints}) and the dependency lock file
 * {@code .terraform.lock.hcl} ({@link dev.strata.tfplugin.install.LockFile}).
 */
package dev.strata.tfplugin.install;
