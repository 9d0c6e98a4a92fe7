package dev.strata.engine;

/**
 * Why a provisioner failed, in the words of Terraform's "&lt;type&gt; provisioner error" detail. The message
 * never holds a sensitive value: the provisioner leaves it out when its configuration has one.
 */
final class ProvisionerFailure extends Exception {
    ProvisionerFailure(String message) {
        super(message, null, false, false);
    }
}
