package dev.strata.config;

import dev.strata.addr.LocalProviderConfig;
import dev.strata.addr.Provider;
import dev.strata.addr.Resource;
import dev.strata.addr.VersionConstraint;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * One module's configuration: everything its {@code .tf} and {@code .tf.json} files declare, with
 * override files already merged in. Maps are sorted by name (or address) so walks are deterministic.
 *
 * @param dir       the module's directory
 * @param files     the display names of the files read, in load order (primary files, then overrides)
 * @param backend    the {@code terraform { backend }} block, or null
 * @param encryption the {@code terraform { encryption }} block, or null
 * @param providerMetas the {@code terraform { provider_meta }} blocks by provider local name
 * @param actions    the {@code action} blocks by {@code TYPE.NAME}
 */
public record ModuleConfig(
        Path dir,
        List<String> files,
        List<VersionConstraint> requiredVersions,
        SortedMap<String, RequiredProvider> requiredProviders,
        Backend backend,
        SortedMap<LocalProviderConfig, ProviderConfig> providerConfigs,
        SortedMap<String, VariableConfig> variables,
        SortedMap<String, LocalConfig> locals,
        SortedMap<String, OutputConfig> outputs,
        SortedMap<Resource, ResourceConfig> resources,
        SortedMap<String, ModuleCallConfig> moduleCalls,
        List<MovedConfig> moved,
        List<ImportConfig> imports,
        List<RemovedConfig> removed,
        SortedMap<String, CheckConfig> checks,
        EncryptionConfig encryption,
        SortedMap<String, ProviderMetaConfig> providerMetas,
        SortedMap<String, ActionConfig> actions) {
    public ModuleConfig {
        files = List.copyOf(files);
        requiredVersions = List.copyOf(requiredVersions);
        requiredProviders = sorted(requiredProviders);
        providerConfigs = sorted(providerConfigs);
        variables = sorted(variables);
        locals = sorted(locals);
        outputs = sorted(outputs);
        resources = sorted(resources);
        moduleCalls = sorted(moduleCalls);
        moved = List.copyOf(moved);
        imports = List.copyOf(imports);
        removed = List.copyOf(removed);
        checks = sorted(checks);
        providerMetas = sorted(providerMetas);
        actions = sorted(actions);
    }

    private static <K, V> SortedMap<K, V> sorted(Map<K, V> m) {
        return Collections.unmodifiableSortedMap(new TreeMap<>(m));
    }

    /**
     * The provider a local name stands for in this module: from {@code required_providers}, or
     * implied ({@code hashicorp/<name>}) when not declared, as Terraform does.
     */
    public Provider providerFor(String localName) {
        RequiredProvider rp = requiredProviders.get(localName);
        return rp != null ? rp.source() : Provider.implied(localName);
    }
}
