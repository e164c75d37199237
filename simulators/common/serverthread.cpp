#include "simulators/common/serverthread.h"

namespace strata::sim {

ServerThread::ServerThread()
{
    m_thread.setObjectName(QStringLiteral("strata-sim"));
    m_thread.start();
    m_context = new QObject;
    m_context->moveToThread(&m_thread);
}

ServerThread::~ServerThread()
{
    runBlocking([this] {
        delete m_root;
        m_root = nullptr;
    });
    // Deferred deletes still run when the thread's event loop finishes.
    m_context->deleteLater();
    m_thread.quit();
    m_thread.wait();
}

QObject *ServerThread::start(const std::function<QObject *()> &factory)
{
    runBlocking([this, &factory] {
        m_root = factory();
    });
    return m_root;
}

void ServerThread::runBlocking(const std::function<void()> &fn)
{
    if (QThread::currentThread() == &m_thread) {
        fn();
        return;
    }
    QMetaObject::invokeMethod(m_context, fn, Qt::BlockingQueuedConnection);
}

} // namespace strata::sim
