<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en">
<context>
    <name>QObject</name>
    <message numerus="yes">
        <source>%n job(s) deleted.</source>
        <translation>
            <numerusform>%n job deleted.</numerusform>
            <numerusform>%n jobs deleted.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n AKS cluster(s)</source>
        <translation>
            <numerusform>%n AKS cluster</numerusform>
            <numerusform>%n AKS clusters</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n NetApp account(s)</source>
        <translation>
            <numerusform>%n NetApp account</numerusform>
            <numerusform>%n NetApp accounts</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>rows</name>
    <message numerus="yes">
        <source>%n h</source>
        <translation>
            <numerusform>%n h</numerusform>
            <numerusform>%n h</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n days</source>
        <translation>
            <numerusform>%n days</numerusform>
            <numerusform>%n days</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n years</source>
        <translation>
            <numerusform>%n years</numerusform>
            <numerusform>%n years</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>strata::core::AzureSource</name>
    <message numerus="yes">
        <source>%n snapshot(s)</source>
        <translation>
            <numerusform>%n snapshot</numerusform>
            <numerusform>%n snapshots</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n newer snapshot(s) will be deleted: %1</source>
        <translation>
            <numerusform>%n newer snapshot will be deleted: %1</numerusform>
            <numerusform>%n newer snapshots will be deleted: %1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>strata::core::Bundle</name>
    <message numerus="yes">
        <source>the history store did not answer %n queries in time</source>
        <translation>
            <numerusform>the history store did not answer %n query in time</numerusform>
            <numerusform>the history store did not answer %n queries in time</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>strata::core::KubernetesSource</name>
    <message numerus="yes">
        <source>%1: %2/%3 GPUs, %n queued</source>
        <translation>
            <numerusform>%1: %2/%3 GPUs, %n queued</numerusform>
            <numerusform>%1: %2/%3 GPUs, %n queued</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Delete %n job(s)</source>
        <translation>
            <numerusform>Delete %n job</numerusform>
            <numerusform>Delete %n jobs</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n job(s)</source>
        <translation>
            <numerusform>%n job</numerusform>
            <numerusform>%n jobs</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Copies %n object(s) (%1) from %2/%3/%4 into %5 on the cache volume.</source>
        <translation>
            <numerusform>Copies %n object (%1) from %2/%3/%4 into %5 on the cache volume.</numerusform>
            <numerusform>Copies %n objects (%1) from %2/%3/%4 into %5 on the cache volume.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>strata::core::OntapSource</name>
    <message numerus="yes">
        <source>%n snapshot(s)</source>
        <translation>
            <numerusform>%n snapshot</numerusform>
            <numerusform>%n snapshots</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n newer snapshot(s) will be deleted: %1</source>
        <translation>
            <numerusform>%n newer snapshot will be deleted: %1</numerusform>
            <numerusform>%n newer snapshots will be deleted: %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>The policy is shared: its limit covers all %n object(s) under it together.</source>
        <translation>
            <numerusform>The policy is shared: its limit covers all %n object under it together.</numerusform>
            <numerusform>The policy is shared: its limit covers all %n objects under it together.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>strata::models::DatasetModel</name>
    <message numerus="yes">
        <source>%n ready, %1 loading</source>
        <translation>
            <numerusform>%n ready, %1 loading</numerusform>
            <numerusform>%n ready, %1 loading</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>strata::models::ForecastTableModel</name>
    <message numerus="yes">
        <source>%n h</source>
        <translation>
            <numerusform>%n h</numerusform>
            <numerusform>%n h</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n days</source>
        <translation>
            <numerusform>%n days</numerusform>
            <numerusform>%n days</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>strata::views::ActionDialog</name>
    <message numerus="yes">
        <source>Delete these %n jobs; their running work stops</source>
        <translation>
            <numerusform>Delete this job; its running work stops</numerusform>
            <numerusform>Delete these %n jobs; their running work stops</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>strata::views::GpuProjectChart</name>
    <message numerus="yes">
        <source>Pending demand: %1 GPUs in %Ln queued jobs</source>
        <translation>
            <numerusform>Pending demand: %1 GPUs in %Ln queued job</numerusform>
            <numerusform>Pending demand: %1 GPUs in %Ln queued jobs</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>strata::views::MainWindow</name>
    <message numerus="yes">
        <source>%Ln source: %1</source>
        <translation>
            <numerusform>%Ln source: %1</numerusform>
            <numerusform>%Ln source: %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln sources: %1</source>
        <translation>
            <numerusform>%Ln sources: %1</numerusform>
            <numerusform>%Ln sources: %1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>strata::views::NodePackingView</name>
    <message numerus="yes">
        <source>+%n more</source>
        <translation>
            <numerusform>+%n more</numerusform>
            <numerusform>+%n more</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>strata::views::OverviewPage</name>
    <message numerus="yes">
        <source>%n with GPUs</source>
        <translation>
            <numerusform>%n with GPUs</numerusform>
            <numerusform>%n with GPUs</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>strata::views::TriagePage</name>
    <message numerus="yes">
        <source>%Ln entry</source>
        <translation>
            <numerusform>%Ln entry</numerusform>
            <numerusform>%Ln entry</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln entries</source>
        <translation>
            <numerusform>%Ln entries</numerusform>
            <numerusform>%Ln entries</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>strata::views::VolumeDetailPanel</name>
    <message numerus="yes">
        <source>%1 and %n more</source>
        <translation>
            <numerusform>%1 and %n more</numerusform>
            <numerusform>%1 and %n more</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 %, %2 used by %Ln snapshot</source>
        <translation>
            <numerusform>%1 %, %2 used by %Ln snapshot</numerusform>
            <numerusform>%1 %, %2 used by %Ln snapshot</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 %, %2 used by %Ln snapshots</source>
        <translation>
            <numerusform>%1 %, %2 used by %Ln snapshots</numerusform>
            <numerusform>%1 %, %2 used by %Ln snapshots</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>strata::views::VolumesPage</name>
    <message numerus="yes">
        <source>%Ln volume</source>
        <translation>
            <numerusform>%Ln volume</numerusform>
            <numerusform>%Ln volume</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln volumes</source>
        <translation>
            <numerusform>%Ln volumes</numerusform>
            <numerusform>%Ln volumes</numerusform>
        </translation>
    </message>
</context>
</TS>
