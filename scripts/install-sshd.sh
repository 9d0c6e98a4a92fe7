#!/usr/bin/env bash
# Installs the OpenSSH server and client that the provisioner tests start themselves (a throwaway,
# loopback-only sshd with generated keys in a temp dir). Tests skip when OpenSSH is missing, so a
# failure here only warns.
set -uo pipefail
if [ -x /usr/sbin/sshd ] && command -v ssh >/dev/null 2>&1 && command -v ssh-keygen >/dev/null 2>&1; then
  exit 0
fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "install-sshd: installing openssh-server for the provisioner tests" >&2
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openssh-server openssh-client >/dev/null) \
    || echo "install-sshd: could not install openssh-server; the provisioner SSH tests will be skipped" >&2
else
  echo "install-sshd: OpenSSH server not found and cannot install it here; the provisioner SSH tests will be skipped" >&2
fi
exit 0
