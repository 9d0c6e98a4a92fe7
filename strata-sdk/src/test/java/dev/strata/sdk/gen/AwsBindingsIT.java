package dev.strata.sdk.gen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.strata.addr.Provider;
import dev.strata.provider.ProviderSchema;
import dev.strata.tfplugin.PluginLaunch;
import dev.strata.tfplugin.TerraformProvider;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bindings for {@code hashicorp/aws} 5.100 from the filesystem mirror (skipped without it):
 * generated, then every source compiled in process with javax.tools. Prints the measurements that
 * docs/benchmarks.md records. The provider's package and each resource family are compiled as
 * their own javac tasks (families do not refer to each other), so memory stays bounded by the
 * largest family rather than by all 1,500 types.
 */
@Timeout(value = 30, unit = TimeUnit.MINUTES)
class AwsBindingsIT {
    static final Path MIRROR = Path.of(System.getProperty("strata.test.pluginMirror", "/opt/tf-plugins"));
    static final Path EXE = MIRROR.resolve(
            "registry.terraform.io/hashicorp/aws/5.100.0/linux_amd64/terraform-provider-aws_v5.100.0_x5");

    @TempDir
    Path dir;

    @Test
    void theBindingsOfHashicorpAwsCompile() throws IOException {
        assumeTrue(Files.isExecutable(EXE), "AWS provider not installed at " + EXE);
        long t0 = System.nanoTime();
        ProviderSchema schema;
        try (TerraformProvider aws = TerraformProvider.of(
                PluginLaunch.of("registry.terraform.io/hashicorp/aws", EXE), Duration.ofMinutes(5))) {
            schema = aws.checkSchema().value();
        }
        assertThat(schema).isNotNull();
        long schemaMs = ms(t0);
        assertThat(schema.resourceTypes()).hasSizeGreaterThan(1500);

        InProcessCompiler.resetPeak();
        long t1 = System.nanoTime();
        long c1 = java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
        SortedMap<String, String> sources = new BindingGenerator("bindings")
                .generate(List.of(new ProviderBinding(Provider.hashicorp("aws"), "5.100.0", schema)));
        long generateMs = ms(t1);
        long generateCpu =
                (java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - c1) / 1_000_000;
        long t2 = System.nanoTime();
        Path src = dir.resolve("src");
        long bytes = 0;
        SortedMap<String, List<Path>> byPackage = new TreeMap<>();
        for (Map.Entry<String, String> e : sources.entrySet()) {
            Path f = src.resolve(e.getKey());
            Files.createDirectories(f.getParent());
            byte[] b = e.getValue().getBytes(StandardCharsets.UTF_8);
            Files.write(f, b);
            bytes += b.length;
            byPackage
                    .computeIfAbsent(e.getKey().substring(0, e.getKey().lastIndexOf('/')), k -> new ArrayList<>())
                    .add(f);
        }
        long writeMs = ms(t2);
        long generatePeak = InProcessCompiler.peakHeapMib();
        int types = schema.resourceTypes().size() + schema.dataSources().size();
        assertThat(sources.keySet())
                .filteredOn(p -> !p.endsWith("package-info.java"))
                .hasSize(types + 1);
        assertThat(sources).containsKey("bindings/aws/vpc/AwsVpc.java").containsKey("bindings/aws/AwsProvider.java");

        InProcessCompiler.resetPeak();
        Path classes = dir.resolve("classes");
        long t3 = System.nanoTime();
        // The provider's own package first: nothing else depends on it, but it is compiled like the rest.
        List<String> failures = new ArrayList<>();
        int tasks = 0;
        long compileCpu = 0;
        for (Map.Entry<String, List<Path>> e : byPackage.entrySet()) {
            InProcessCompiler.Outcome o = InProcessCompiler.compile(e.getValue(), classes, List.of());
            tasks++;
            compileCpu += o.cpuMillis();
            if (!o.ok()) {
                failures.add(e.getKey() + ": " + o.errors());
            }
        }
        long compileMs = ms(t3);
        long compilePeak = InProcessCompiler.peakHeapMib();
        long classFiles;
        try (var walk = Files.walk(classes)) {
            classFiles = walk.filter(p -> p.toString().endsWith(".class")).count();
        }
        System.out.printf(
                "AWS bindings: %d types, %d files, %.1f MiB of source in %d packages; schema %d ms; generate %d ms "
                        + "(CPU %d ms), write %d ms, peak heap %d MiB; compile %d ms (CPU %d ms) in %d javac tasks, "
                        + "%d class files, peak heap %d MiB; load average %.1f%n",
                types,
                sources.size(),
                bytes / 1048576.0,
                byPackage.size(),
                schemaMs,
                generateMs,
                generateCpu,
                writeMs,
                generatePeak,
                compileMs,
                compileCpu,
                tasks,
                classFiles,
                compilePeak,
                java.lang.management.ManagementFactory.getOperatingSystemMXBean()
                        .getSystemLoadAverage());
        assertThat(failures).isEmpty();
    }

    private static long ms(long since) {
        return (System.nanoTime() - since) / 1_000_000;
    }
}
