#include "connectors/kubernetes/client.h"

#include <gtest/gtest.h>

TEST(KubeClient, ResourceType_ApiVersion)
{
    EXPECT_EQ(strata::kubernetes::kJobs.apiVersion(), "batch/v1");
    EXPECT_EQ(strata::kubernetes::kPods.apiVersion(), "v1");
}
