package dev.strata.config;

import dev.strata.addr.AbsResourceInstance;
import dev.strata.addr.Module;
import dev.strata.addr.ResourceMode;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import dev.strata.lang.funcs.FunctionTable;
import dev.strata.lang.value.Value;
import java.util.List;

/**
 * The checks of one {@code import} block that need no remote object: where it may appear, its
 * {@code to} address, a second block for the same address, and (where {@code for_each} is known
 * already) whether each target's instance key fits the target resource's repetition. Whether the
 * target's configuration exists is left to the plan, as in Terraform, since {@code plan
 * -generate-config-out} writes it.
 */
final class ImportChecks {
    private ImportChecks() {}

    static Diagnostics check(
            Module module,
            ModuleConfig m,
            ImportConfig i,
            Value forEach,
            List<ImportConfig> earlier,
            FunctionTable functions) {
        if (!module.isRoot()) {
            return Diagnostics.of(Diagnostic.error(
                    "Invalid import configuration",
                    "An import block was detected in \"" + module
                            + "\". Import blocks are only allowed in the root module.",
                    i.declRange()));
        }
        Diagnostics d = ImportExpansion.checkTo(i.to(), i.forEach() != null);
        if (d.hasErrors()) {
            return d;
        }
        Result<ImportExpansion.ConfigTarget> target = ImportExpansion.configTarget(i.to());
        if (target.value() == null) {
            return d.with(target.diagnostics());
        }
        if (target.value().resource().mode() != ResourceMode.MANAGED) {
            return d.with(Diagnostic.error(
                    "Invalid import address", "Only managed resources can be imported.", i.to().range()));
        }
        AbsResourceInstance single = null;
        if (i.forEach() == null) {
            single = ImportExpansion.target(i.to(), null, functions).value();
            if (single == null) {
                return d;
            }
            for (ImportConfig e : earlier) {
                if (e.forEach() == null
                        && single.equals(
                                ImportExpansion.target(e.to(), null, functions).value())) {
                    return d.with(ImportExpansion.duplicate(single, e.declRange(), i.to().range()));
                }
            }
        }
        if (!target.value().module().isRoot()) {
            return d;
        }
        ResourceConfig rc = m.resources().get(target.value().resource());
        if (single != null) {
            // Without configuration the plan says so (or writes it with -generate-config-out).
            return rc == null
                    ? d
                    : d.with(
                            ImportExpansion.checkExpansion(rc, single.resource().key(), i.to().range()));
        }
        if (forEach == null || !forEach.isWhollyKnown()) {
            return d;
        }
        Result<List<ImportExpansion.Each>> each =
                ImportExpansion.forEach(forEach, i.forEach().range());
        if (each.value() == null) {
            return d.with(each.diagnostics());
        }
        for (ImportExpansion.Each e : each.value()) {
            Result<AbsResourceInstance> t = ImportExpansion.target(i.to(), e, functions);
            if (t.value() == null) {
                return d.with(t.diagnostics());
            }
            Diagnostics x =
                    ImportExpansion.checkExpansion(rc, t.value().resource().key(), i.to().range());
            if (x.hasErrors()) {
                return d.with(x);
            }
        }
        return d;
    }
}
